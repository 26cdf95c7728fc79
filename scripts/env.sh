# shellcheck shell=bash
# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (see setup.py for the full notice).
#
# Sourced by scripts/demo, scripts/test and scripts/bench: creates (or reuses) a
# virtual environment in .venv/<lane> from the package registries alone, and sets
# the variables every ROS process started from here must have.  No sudo, no ROS
# install, nothing beside the checkout; nothing is written outside it but pip's cache.
#
# The lanes (ROS_DISTRO picks one):
#   kilted (default), jazzy  the ROS 2 core from PyPI's wheels (CPython 3.11, Fast DDS)
#                            with Ubuntu noble's numpy, scipy and matplotlib
#   core                     no ROS: the pure solver and motion core (test/unit) on the
#                            newest CPython here with NumPy 2 and current libraries, as
#                            Lyrical and Rolling on Ubuntu resolute have them
# Humble, Lyrical and Rolling have no wheels: with a ROS install, build with colcon
# (README, "The whole suite in a ROS workspace").

TWOBONE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TWOBONE_DISTRO="${ROS_DISTRO:-kilted}"
case "$TWOBONE_DISTRO" in
  kilted|jazzy) TWOBONE_PYTHON="${TWOBONE_PYTHON:-python3.11}" ;;
  core) TWOBONE_PYTHON="${TWOBONE_PYTHON:-python3.13}" ;;
  *)
    echo "scripts: ROS_DISTRO=$TWOBONE_DISTRO has no PyPI wheels; use kilted (default), jazzy or core." >&2
    echo "With a sourced ROS install, build with colcon instead (README, 'The whole suite in a ROS workspace')." >&2
    return 2 2>/dev/null || exit 2 ;;
esac
# an interpreter that runs (pyenv's shim of a version that is installed but not selected
# does not): else pyenv's own of that version, where pyenv has it
if ! "$TWOBONE_PYTHON" -c '' >/dev/null 2>&1; then
  twobone_version="$(pyenv versions --bare 2>/dev/null \
    | grep -E "^${TWOBONE_PYTHON#python}(\.|\$)" | tail -1 || true)"
  if [ -n "$twobone_version" ] && [ -x "$(pyenv prefix "$twobone_version")/bin/$TWOBONE_PYTHON" ]; then
    TWOBONE_PYTHON="$(pyenv prefix "$twobone_version")/bin/$TWOBONE_PYTHON"
  else
    echo "scripts: the $TWOBONE_DISTRO lane needs $TWOBONE_PYTHON (set TWOBONE_PYTHON to another)" >&2
    return 2 2>/dev/null || exit 2
  fi
fi
TWOBONE_VENV="$TWOBONE_ROOT/.venv/$TWOBONE_DISTRO"
# A snapshot of ros/rosdistro for the real rosdep, offline (test/meta/test_rosdep.py): the
# tests marked rosdistro resolve package.xml's keys with it; .ci/run names ../shared/rosdistro.
if [ -n "${TWOBONE_ROSDISTRO:-}" ]; then
  TWOBONE_ROSDISTRO="$(cd "$TWOBONE_ROSDISTRO" 2>/dev/null && pwd)" || {
    echo "scripts: TWOBONE_ROSDISTRO is not a folder" >&2; return 1 2>/dev/null || exit 1; }
  export TWOBONE_ROSDISTRO
fi

# the requirement files of this lane's venv
twobone_requirements() {
  local name
  if [ "$TWOBONE_DISTRO" = core ]; then
    set -- core
  else  # the platform's numpy, scipy and matplotlib: Ubuntu 24.04's for Jazzy and Kilted
    set -- "$TWOBONE_DISTRO" noble runtime ros-python dev
  fi
  for name in "$@"; do echo "$TWOBONE_ROOT/requirements/$name.txt"; done
}

twobone_ensure_venv() {
  local stamp files
  mapfile -t files < <(twobone_requirements)
  stamp="$( { "$TWOBONE_PYTHON" --version; cat "${files[@]}"; } | sha256sum | cut -c1-16)"
  if [ -x "$TWOBONE_VENV/bin/python" ] && [ "$(cat "$TWOBONE_VENV/.stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  echo "scripts: creating $TWOBONE_VENV ($TWOBONE_DISTRO, from PyPI)" >&2
  rm -rf "$TWOBONE_VENV"
  "$TWOBONE_PYTHON" -m venv "$TWOBONE_VENV" || return 1
  # pip prints a warning per package for each configured index folder that is
  # absent on this machine; keep only real messages
  local file arguments=()
  for file in "${files[@]}"; do arguments+=(-r "$file"); done
  "$TWOBONE_VENV/bin/python" -m pip install --disable-pip-version-check -q "${arguments[@]}" \
    2> >(grep -v 'is ignored: it is neither' >&2) || return 1
  echo "$stamp" > "$TWOBONE_VENV/.stamp"
}

# Discovery stays on this machine, in a domain of this run's own (1..101):
# Iron and later read the range; Humble reads ROS_LOCALHOST_ONLY instead (set
# for it in a user's shell; Jazzy warns in every process that it is deprecated).
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-$(( 1 + $$ % 101 ))}"
export ROS_DISTRO="$TWOBONE_DISTRO"
export PYTHONPATH="$TWOBONE_ROOT${PYTHONPATH:+:$PYTHONPATH}"
