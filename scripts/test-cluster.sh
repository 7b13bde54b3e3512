#!/usr/bin/env bash
# make test-cluster: facepipe under a real single-node Slurm (Debian's
# slurm-wlm + munge, daemons started by hand in a temporary folder, as root)
# and under a simulated Kubernetes Indexed Job (N processes with
# JOB_COMPLETION_INDEX), each merged with `facepipe merge` and compared byte
# for byte with one run over the same inputs. One Slurm task is requeued
# while it runs (scontrol requeue kills it and queues it again); it resumes
# its shard. Prints times; exit 0 only when every comparison holds.
#
# Usage: scripts/test-cluster.sh [BINARY]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-$(swift build -c release --show-bin-path)/facepipe}"
[ -x "$BIN" ] || { echo "test-cluster: $BIN missing; run 'make build' first" >&2; exit 2; }
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"   # the jobs run in another folder
[ "$(id -u)" -eq 0 ] || { echo "test-cluster: needs root to start slurmctld/slurmd/munged" >&2; exit 2; }
SAMPLE=datasets/build/sample.tar
[ -f "$SAMPLE" ] || { echo "test-cluster: $SAMPLE missing; run 'make sample' first" >&2; exit 2; }
TASKS=4

if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    echo "test-cluster: installing slurm-wlm and munge (daemons not started by the packages)"
    added_policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; added_policy=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm slurmctld slurmd slurm-client munge > /dev/null
    [ -n "$added_policy" ] && rm -f /usr/sbin/policy-rc.d
fi

T="$(mktemp -d /tmp/facepipe-cluster.XXXXXX)"
chmod 755 "$T"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2> /dev/null || true; done
    for _ in $(seq 20); do alive=0; for pid in "${PIDS[@]}"; do kill -0 "$pid" 2> /dev/null && alive=1; done; [ $alive -eq 0 ] && break; sleep 0.5; done
    for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2> /dev/null || true; done
    [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

# Inputs: the sample archive's images in four tars (entries in order, round-robin).
mkdir -p "$T/in"
python3 - "$SAMPLE" "$T/in" "$TASKS" <<'PY'
import sys, tarfile
source, folder, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
members = [m for m in tarfile.open(source) if m.isfile()]
with tarfile.open(source) as src:
    outs = [tarfile.open(f"{folder}/part-{k}.tar", "w", format=tarfile.USTAR_FORMAT) for k in range(n)]
    for i, m in enumerate(members):
        data = src.extractfile(m)
        info = tarfile.TarInfo(m.name); info.size = m.size; info.mtime = 0; info.mode = 0o644
        outs[i % n].addfile(info, data)
    for o in outs: o.close()
PY
INPUTS=("$T"/in/part-*.tar)

echo "== single run (reference)"
start=$(date +%s.%N)
"$BIN" run faces "${INPUTS[@]}" --out "$T/single" --workers 2 --quiet || [ $? -eq 1 ]
single_s=$(python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
echo "   ${single_s} s"

compare() {  # compare NAME OUT: manifest, images and JSON identical to the single run
    local name="$1" out="$2" a b
    a=$(cd "$T/single" && { md5sum manifest.csv; find images faces -type f 2> /dev/null | LC_ALL=C sort | xargs md5sum; } | md5sum)
    b=$(cd "$out" && { md5sum manifest.csv; find images faces -type f 2> /dev/null | LC_ALL=C sort | xargs md5sum; } | md5sum)
    if [ "$a" = "$b" ]; then echo "   $name: identical to the single run (manifest, $(cd "$out" && find images faces -type f | wc -l) files)"
    else echo "   $name: DIFFERS from the single run" >&2; diff <(cd "$T/single" && find images faces -type f | sort) <(cd "$out" && find images faces -type f | sort) | head >&2; exit 1; fi
}

echo "== simulated Kubernetes Indexed Job: $TASKS processes with JOB_COMPLETION_INDEX"
start=$(date +%s.%N)
pids=()
for i in $(seq 0 $((TASKS - 1))); do
    JOB_COMPLETION_INDEX=$i FACEPIPE_SHARD_COUNT=$TASKS "$BIN" run faces "${INPUTS[@]}" --out "$T/k8s" --shard auto --workers 1 --quiet &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || [ $? -eq 1 ]; done
"$BIN" merge "$T/k8s"
k8s_s=$(python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
echo "   ${k8s_s} s for $TASKS tasks + merge"
compare "Indexed Job" "$T/k8s"

echo "== single-node Slurm"
mkdir -p "$T/munge" "$T/munge-socket" "$T/state" "$T/spool" "$T/log"
chmod 700 "$T/munge"; chmod 755 "$T/munge-socket"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1 count=1024 2> /dev/null; chmod 400 "$T/munge/munge.key"
SOCKET="$T/munge-socket/munge.socket"
munged --foreground --force --key-file="$T/munge/munge.key" --socket="$SOCKET" --pid-file="$T/munge/munged.pid" \
    --log-file="$T/log/munged.log" --seed-file="$T/munge/munge.seed" &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$SOCKET" ] && break; sleep 0.1; done
node=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')
cat > "$T/slurm.conf" <<CONF
ClusterName=facepipe-test
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCKET
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 $node
PartitionName=main Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -D -f "$SLURM_CONF" > "$T/log/slurmctld.stdout" 2>&1 & PIDS+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" > "$T/log/slurmd.stdout" 2>&1 & PIDS+=($!)
for _ in $(seq 100); do
    if sinfo -h -o %t 2> /dev/null | grep -q idle && grep -q SchedulerParameters "$T/log/slurmctld.log" 2> /dev/null; then break; fi
    sleep 0.2
done
sinfo -h -o "%P %t %c CPUs" | sed 's/^/   node: /'

export PATH="$(dirname "$BIN"):$PATH"
start=$(date +%s.%N)
job=$(cd "$T" && OUT="$T/slurm" PIPELINE=faces sbatch --parsable --export=ALL --array=0-$((TASKS - 1)) \
      "$OLDPWD/deploy/slurm/facepipe.sbatch" "${INPUTS[@]}")
job="${job%%;*}"
echo "   array job $job submitted"
# Requeue task 2 while it runs, once it has written some outputs.
victim="${job}_2"
for _ in $(seq 300); do
    state=$(squeue -h -j "$victim" -o %T 2> /dev/null || true)
    if [ "$state" = "RUNNING" ] && [ -n "$(find "$T/slurm/shards/2-of-$TASKS/images" -name '*.png' 2> /dev/null | head -1)" ]; then break; fi
    sleep 0.1
done
done_before=$(find "$T/slurm/shards/2-of-$TASKS/images" -name '*.png' 2> /dev/null | wc -l)
scontrol requeue "$victim"
# A requeued job waits about two minutes before it may start again; let it start now.
for _ in $(seq 50); do scontrol update JobId="$victim" StartTime=now 2> /dev/null && break; sleep 0.1; done
echo "   requeued $victim while running ($done_before images written)"

merge=$(cd "$T" && OUT="$T/slurm" sbatch --parsable --export=ALL --dependency="afterok:$job" --wait "$OLDPWD/deploy/slurm/merge.sbatch")
slurm_s=$(python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
echo "   merge job ${merge%%;*} done; ${slurm_s} s from submission"
grep -h "facepipe" "$T"/facepipe-merge-*.out | sed 's/^/   /'
echo "   task 2's log (killed, then resumed):"; sed 's/^/     /' "$T/facepipe-${job}_2.out"
[ -f "$T/slurm/shards/2-of-$TASKS/_SUCCESS" ] || { echo "   task 2 did not complete after its requeue" >&2; exit 1; }
compare "Slurm array (one task requeued)" "$T/slurm"
echo "test-cluster: ok (single ${single_s} s; Indexed Job ${k8s_s} s; Slurm ${slurm_s} s)"
