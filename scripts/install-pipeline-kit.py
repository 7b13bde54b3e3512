#!/usr/bin/env python3
"""Install what compiling a pipeline file needs (`facepipe run --pipeline MyPipeline.swift …`).

Usage: scripts/install-pipeline-kit.py BUILD_BIN_DIR DEST   (what `make install` runs;
DEST is PREFIX/lib/facepipe). From the build folder SwiftPM linked `facepipe` in, DEST gets:

  Modules/NAME.swiftmodule   every Swift module linked into facepipe (Pipeline, FacepipeCLI
                             and the modules their interfaces import)
  c/NAME/...                 each C module's map and headers (system libraries: the map and
                             its shim; their own headers come from Debian's -dev packages)
  libfacepipe.a              facepipe's objects without its main (the executable's own
                             folder), from facepipe.product/Objects.LinkFileList, without
                             debug sections
  swift-version              `swiftc --version` of the compiler that built them
  swiftc-arguments           the compiler's module arguments, one a line, $KIT/ for DEST

Which modules and maps: the objects facepipe linked, and the module flags SwiftPM compiled
FacepipeCLI with (description.json). Sources/FacepipeCLI/PipelineKit.swift reads DEST.
Standard library only.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

KIT = "$KIT/"


def fail(message: str) -> None:
    print(f"install-pipeline-kit: {message}", file=sys.stderr)
    sys.exit(2)


def module_map_arguments(arguments: list[str]) -> tuple[list[str], list[str]]:
    """The module maps (-Xcc -fmodule-map-file=) and system include flags (-I/usr/…) of a compile command."""
    maps, system = [], []
    for i, argument in enumerate(arguments):
        if argument == "-Xcc" and i + 1 < len(arguments) and arguments[i + 1].startswith("-fmodule-map-file="):
            maps.append(arguments[i + 1].split("=", 1)[1])
        elif argument.startswith("-I") and len(argument) > 2:
            system.append(argument)
    return maps, system


def install_c_module(map_path: pathlib.Path, bin_dir: pathlib.Path, dest: pathlib.Path) -> list[str]:
    text = map_path.read_text()
    name = re.search(r"module\s+(\w+)", text)
    if not name:
        fail(f"{map_path}: no module name")
    folder = dest / "c" / name.group(1)
    if folder.exists():
        shutil.rmtree(folder)
    if bin_dir in map_path.parents:
        # SwiftPM's generated map names its umbrella header or folder by absolute path:
        # copy that folder as include/ and name it relative to the map.
        target = re.search(r'umbrella(?:\s+header)?\s+"([^"]+)"', text)
        if not target:
            fail(f"{map_path}: no umbrella header or folder")
        umbrella = pathlib.Path(target.group(1))
        include = umbrella if umbrella.is_dir() else umbrella.parent
        shutil.copytree(include, folder / "include")
        relative = "include" if umbrella.is_dir() else f"include/{umbrella.name}"
        (folder / "module.modulemap").write_text(text.replace(f'"{umbrella}"', f'"{relative}"'))
        installed_map = folder / "module.modulemap"
    else:
        # A map beside its headers (a package's include/, a system library's folder).
        shutil.copytree(map_path.parent, folder)
        installed_map = folder / map_path.name
    arguments = ["-Xcc", f"-fmodule-map-file={KIT}{installed_map.relative_to(dest)}"]
    # The header folder SwiftPM passes with -I (none for a system library's shim).
    include = folder / "include" if bin_dir in map_path.parents else folder if map_path.parent.name == "include" else None
    if include is not None:
        arguments += ["-Xcc", "-I", "-Xcc", f"{KIT}{include.relative_to(dest)}"]
    return arguments


def main() -> int:
    if len(sys.argv) != 3:
        fail("usage: install-pipeline-kit.py BUILD_BIN_DIR DEST")
    bin_dir = pathlib.Path(sys.argv[1]).resolve()
    dest = pathlib.Path(sys.argv[2])
    link_list = bin_dir / "facepipe.product" / "Objects.LinkFileList"
    description = bin_dir / "description.json"
    for needed in (link_list, description):
        if not needed.is_file():
            fail(f"{needed} not found (build facepipe first: make build)")
    own = bin_dir / "facepipe.build"
    objects = [pathlib.Path(line) for line in link_list.read_text().splitlines() if line.strip()]
    objects = [o for o in objects if own not in o.resolve().parents]
    commands = json.loads(description.read_text())["swiftCommands"].values()
    cli = next((c for c in commands if c.get("moduleName") == "FacepipeCLI"), None)
    if cli is None:
        fail(f"{description}: no command compiles FacepipeCLI")
    versions = sorted(bin_dir.glob("swift-version-*.txt"))
    if not versions:
        fail(f"{bin_dir}/swift-version-*.txt not found")

    if dest.exists():
        shutil.rmtree(dest)
    (dest / "Modules").mkdir(parents=True)
    modules = sorted({o.resolve().relative_to(bin_dir).parts[0].removesuffix(".build")
                      for o in objects if bin_dir in o.resolve().parents})
    for module in modules:
        swiftmodule = bin_dir / "Modules" / f"{module}.swiftmodule"
        if swiftmodule.is_file():
            shutil.copy2(swiftmodule, dest / "Modules")
    arguments = ["-I", f"{KIT}Modules"]
    maps, system = module_map_arguments(cli["otherArguments"])
    for map_path in maps:
        arguments += install_c_module(pathlib.Path(map_path), bin_dir, dest)
    arguments += system
    archive = dest / "libfacepipe.a"
    # q, not r: objects of different folders share names (cpu.c.o); D: no dates or owners.
    subprocess.run(["ar", "qcsD", str(archive), *map(str, objects)], check=True)
    # Without the objects' debug sections (83 MB → 27 MB measured; symbols stay, so backtraces name functions).
    if shutil.which("strip"):
        subprocess.run(["strip", "--strip-debug", str(archive)], check=True)
    shutil.copy2(versions[0], dest / "swift-version")
    (dest / "swiftc-arguments").write_text("".join(a + "\n" for a in arguments))
    for path in dest.rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    size = sum(p.stat().st_size for p in dest.rglob("*") if p.is_file())
    print(f"installed the pipeline-file kit in {dest}: {len(list((dest / 'Modules').iterdir()))} Swift modules, "
          f"{len(maps)} C modules, {len(objects)} objects; {size / 1e6:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
