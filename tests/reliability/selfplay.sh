#!/bin/sh
# Self-play at 1 s + 0.01 s for docs/reliability.md: N games per two-player
# variant and per chinese player count, one match at a time.
#   tests/reliability/selfplay.sh BINARY OUTDIR GAMES_PER_CONFIG [SEED]
# CONFIGS="english chinese:3" limits the run to those configurations.
# Writes OUTDIR/<config>.json (the match summary), .pdn, .times (per move:
# seconds used, seconds left, from tests/reliability/hub_timing_proxy.py).
set -u
bin=$1; out=$2; n=$3; seed=${4:-1}
proxy=$(dirname "$0")/hub_timing_proxy.py
mkdir -p "$out"
all="international brazilian english spanish turkish hex russian antidraughts breakthrough chinese:2 chinese:3 chinese:4 chinese:6"
for cfg in ${CONFIGS:-$all}; do
  v=${cfg%%:*}; p=${cfg#*:}; [ "$p" = "$cfg" ] && p=2
  name=$v; [ "$v" = chinese ] && name=chinese$p
  set --
  i=0
  while [ $i -lt "$p" ]; do
    set -- "$@" --engine "cmd=python3 args=\"$proxy $out/$name.times $bin hub\" name=s$i"
    i=$((i+1))
  done
  players=""; [ "$v" = chinese ] && players="--players $p"
  games=$n
  # A multiple of the player count, so that every seat is played equally.
  games=$(( (games + p - 1) / p * p ))
  "$bin" match --variant "$v" $players "$@" --tc 1+0.01 --concurrency 2 \
    --games "$games" --random-openings 4 --seed "$seed" --quiet --json \
    --pdn "$out/$name.pdn" > "$out/$name.json" 2> "$out/$name.err"
  echo "$name done: exit $?" >> "$out/progress"
done
