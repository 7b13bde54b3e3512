"""The entries of tar archives as the Python baselines read them: streamed
with tarfile (never extracted), regular files only, each with its header
position. Shared by mediapipe_baseline.py and yunet_baseline.py."""
import tarfile


def tar_entries(archives):
    """Yields (index, name, bytes) for every regular file, in archive order."""
    index = 0
    for archive in archives:
        with tarfile.open(archive, "r|*") as tar:
            for member in tar:
                if member.isfile():
                    yield index, member.name, tar.extractfile(member).read()
                index += 1
