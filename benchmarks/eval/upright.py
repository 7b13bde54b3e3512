"""Opening an eval image as every Python method sees it: with Pillow,
turned upright by its EXIF orientation (`ImageOps.exif_transpose`), RGB."""
from PIL import Image, ImageOps


def open_upright(path: str):
    """The upright RGB image, or a {"file", "error"} line when it cannot be decoded."""
    try:
        with Image.open(path) as opened:
            return ImageOps.exif_transpose(opened).convert("RGB"), None
    except Exception as error:  # report and go on, like facepipe detect
        return None, {"file": path, "error": f"cannot decode {path}: {error}"}
