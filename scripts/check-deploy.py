#!/usr/bin/env python3
"""Prints the Kubernetes manifests given on the command line as one JSON
object {file name: [documents]}, parsed by PyYAML (from .venv-export), for
the deployment tests to check their structure. Exits 1 on a YAML error."""
import json
import pathlib
import sys

import yaml

print(json.dumps({pathlib.Path(p).name: list(yaml.safe_load_all(pathlib.Path(p).read_text())) for p in sys.argv[1:]}))
