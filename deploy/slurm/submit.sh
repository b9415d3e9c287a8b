#!/usr/bin/env bash
# Queues a sharded sweep on Slurm: a job array of TASKS shards (default 8),
# then the merge, which starts only if every shard succeeded.
#   ROUTECHECK=$PWD/routecheck EXPERIMENT=pops-table1 TASKS=16 deploy/slurm/submit.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
TASKS=${TASKS:-8}
if ! [[ $TASKS =~ ^[1-9][0-9]*$ ]]; then
  echo "submit.sh: TASKS = '$TASKS': must be an integer ≥ 1" >&2
  exit 2
fi
jid=$(sbatch --parsable --array="0-$((TASKS - 1))" "$here/reproduce-array.sbatch")
sbatch --dependency="afterok:${jid%%;*}" "$here/merge.sbatch"
