#!/bin/bash
# deploy/slurm/submit.sh OUT TASKS PARALLEL PIPELINE INPUT...
# Submits TASKS array tasks (at most PARALLEL at once) running PIPELINE over
# the INPUTs into OUT, then the merge job that runs when all succeeded.
# Prints both job ids. OUT and the inputs must be on a file system every node sees.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 OUT TASKS PARALLEL PIPELINE INPUT..." >&2; exit 2; }
out="$1" tasks="$2" parallel="$3" pipeline="$4"; shift 4
here="$(cd "$(dirname "$0")" && pwd)"
array=$(OUT="$out" PIPELINE="$pipeline" sbatch --parsable --export=ALL --array="0-$((tasks - 1))%$parallel" "$here/facepipe.sbatch" "$@")
merge=$(OUT="$out" sbatch --parsable --export=ALL --dependency="afterok:${array%%;*}" "$here/merge.sbatch")
echo "array job ${array%%;*} ($tasks tasks), merge job ${merge%%;*}"
