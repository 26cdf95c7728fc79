# shellcheck shell=bash
# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (see setup.py for the full notice).
#
# Sourced by scripts/demo and scripts/test: creates (or reuses) a virtual
# environment in .venv/<distro> with the ROS 2 core wheels from PyPI, and sets
# the variables every ROS process started from here must have.  No sudo, no
# ROS install; nothing is written outside the checkout but pip's cache (and
# the machine's cache folder, for what TWOBONE_SHARED builds: see below).
# ROS_DISTRO=humble has no wheels: its Python client stack is built from
# ../shared/ros2-humble (TWOBONE_SHARED), once per machine.

TWOBONE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TWOBONE_DISTRO="${ROS_DISTRO:-kilted}"
case "$TWOBONE_DISTRO" in
  kilted|jazzy|humble) ;;
  *)
    echo "scripts: ROS_DISTRO=$TWOBONE_DISTRO has no PyPI wheels; use kilted (default), jazzy or humble." >&2
    echo "With a sourced ROS install, build with colcon instead (README, 'In a ROS workspace')." >&2
    return 2 2>/dev/null || exit 2 ;;
esac
# TWOBONE_SHARED names a folder with ros2-launch, ros2-cpp and rosdistro (../shared
# beside the checkout in CI): each is the default of its own variable below.
if [ -n "${TWOBONE_SHARED:-}" ]; then
  TWOBONE_SHARED="$(cd "$TWOBONE_SHARED" 2>/dev/null && pwd)" || {
    echo "scripts: TWOBONE_SHARED is not a folder" >&2; return 1 2>/dev/null || exit 1; }
  TWOBONE_ROS_SOURCES="${TWOBONE_ROS_SOURCES:-$TWOBONE_SHARED/ros2-launch}"
  TWOBONE_ROS_CPP_SOURCES="${TWOBONE_ROS_CPP_SOURCES:-$TWOBONE_SHARED/ros2-cpp}"
  TWOBONE_ROSDISTRO="${TWOBONE_ROSDISTRO:-$TWOBONE_SHARED/rosdistro}"
  TWOBONE_ROS_HUMBLE_SOURCES="${TWOBONE_ROS_HUMBLE_SOURCES:-$TWOBONE_SHARED/ros2-humble}"
fi
# A snapshot of ros/rosdistro for the real rosdep, offline (test/meta/test_rosdep.py):
# the suite resolves package.xml's keys with it; without it those tests are skipped.
if [ -n "${TWOBONE_ROSDISTRO:-}" ]; then
  TWOBONE_ROSDISTRO="$(cd "$TWOBONE_ROSDISTRO" 2>/dev/null && pwd)" || {
    echo "scripts: TWOBONE_ROSDISTRO is not a folder" >&2; return 1 2>/dev/null || exit 1; }
  export TWOBONE_ROSDISTRO
fi
TWOBONE_PYTHON="${TWOBONE_PYTHON:-python3.11}"
command -v "$TWOBONE_PYTHON" >/dev/null 2>&1 || TWOBONE_PYTHON=python3
# the platform's numpy, scipy and matplotlib: Ubuntu 24.04's for Jazzy and Kilted
TWOBONE_PLATFORM=noble

# The real robot_state_publisher, static_transform_publisher and ros2_control
# are C++; the wheels have no rclcpp.  Where TWOBONE_ROS_CPP_SOURCES names a
# folder with their sources and a build.sh (../shared/ros2-cpp in CI), the
# Kilted venv, the launch tools and the C++ build live together in a folder of
# this machine's, outside the checkout: the C++ build names the venv's paths
# (numpy's headers among them), so the three are one unit.  It is keyed by the
# ROS wheels, the platform's libraries and the content of both source folders, so a fresh clone on the same machine reuses it (about
# 20 to 30 minutes the first time, seconds after) and a changed tree is rebuilt.
TWOBONE_CACHE="${TWOBONE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/twobone_ik_ros}"
TWOBONE_CPP_HOME=""
# The C++ stack is test infrastructure: built without -O3 (doc/testing.md has what it saves).
TWOBONE_CPP_BUILD="${TWOBONE_CPP_BUILD:-BUILD_TYPE=None CFLAGS=-O1 CXXFLAGS=-O1}"
# Every file of the given folder, by path and content, but Python's byte code: a build
# that runs the sources' Python writes __pycache__ into them (Humble's rcutils does,
# where PYTHONDONTWRITEBYTECODE is unset), and the next run must find the same key.
twobone_tree_digest() {
  (cd "$1" && find . -name __pycache__ -prune -o -type f ! -name '*.pyc' -print0 | sort -z \
    | xargs -0 sha256sum) | sha256sum | cut -c1-16
}
if [ -n "${TWOBONE_ROS_CPP_SOURCES:-}" ] && [ "$TWOBONE_DISTRO" = kilted ]; then
  TWOBONE_ROS_CPP_SOURCES="$(cd "$TWOBONE_ROS_CPP_SOURCES" 2>/dev/null && pwd)" || {
    echo "scripts: TWOBONE_ROS_CPP_SOURCES is not a folder" >&2; return 1 2>/dev/null || exit 1; }
  [ -n "${TWOBONE_ROS_SOURCES:-}" ] || {
    echo "scripts: TWOBONE_ROS_CPP_SOURCES needs TWOBONE_ROS_SOURCES (the launch tools) too" >&2
    return 1 2>/dev/null || exit 1; }
  TWOBONE_CPP_HOME="$TWOBONE_CACHE/kilted-$( {
    cat "$TWOBONE_ROOT/requirements/kilted.txt" "$TWOBONE_ROOT/requirements/$TWOBONE_PLATFORM.txt"
    twobone_tree_digest "$TWOBONE_ROS_SOURCES"
    twobone_tree_digest "$TWOBONE_ROS_CPP_SOURCES"
    echo "$TWOBONE_CPP_BUILD"; } | sha256sum | cut -c1-16)"
  TWOBONE_VENV="$TWOBONE_CPP_HOME/venv"
else
  TWOBONE_VENV="$TWOBONE_ROOT/.venv/$TWOBONE_DISTRO"
fi

# Humble: no wheels.  build.sh of TWOBONE_ROS_HUMBLE_SOURCES builds rclpy 3.3,
# the messages, control_msgs, tf2_py, launch and ros2cli on CPython 3.10 with
# Ubuntu 22.04's numpy (a venv and a colcon workspace), once per machine into a
# folder keyed by the sources and the build flags (TWOBONE_HUMBLE_BUILD).  The
# middleware is TWOBONE_HUMBLE_RMW: cyclonedds (default: Debian's Cyclone DDS
# with its DDS security plugins and sros2, 104 packages) or
# fastrtps (Fast DDS 2.6 built from source, 109 packages, no security; -O1
# instead of Release's -O3 about halves its compile).  NICE=0: build.sh's default
# niceness 15 starves the build beside other work.
TWOBONE_HUMBLE_HOME=""
TWOBONE_HUMBLE_RMW="${TWOBONE_HUMBLE_RMW:-cyclonedds}"
TWOBONE_HUMBLE_BUILD="BUILD_TYPE=None CFLAGS=-O1 CXXFLAGS=-O1"
if [ "$TWOBONE_HUMBLE_RMW" != fastrtps ]; then  # (fastrtps: the cache key it always had)
  TWOBONE_HUMBLE_BUILD="RMW=$TWOBONE_HUMBLE_RMW $TWOBONE_HUMBLE_BUILD"
fi
if [ "$TWOBONE_DISTRO" = humble ]; then
  if [ -z "${TWOBONE_ROS_HUMBLE_SOURCES:-}" ]; then
    echo "scripts: ROS_DISTRO=humble builds ROS 2 Humble from sources: set TWOBONE_SHARED=../shared" \
      "(or TWOBONE_ROS_HUMBLE_SOURCES)." >&2
    return 2 2>/dev/null || exit 2
  fi
  TWOBONE_ROS_HUMBLE_SOURCES="$(cd "$TWOBONE_ROS_HUMBLE_SOURCES" 2>/dev/null && pwd)" || {
    echo "scripts: TWOBONE_ROS_HUMBLE_SOURCES is not a folder" >&2; return 1 2>/dev/null || exit 1; }
  TWOBONE_HUMBLE_HOME="$TWOBONE_CACHE/humble-$( {
    twobone_tree_digest "$TWOBONE_ROS_HUMBLE_SOURCES"
    echo "$TWOBONE_HUMBLE_BUILD"; } | sha256sum | cut -c1-16)"
  TWOBONE_VENV="$TWOBONE_HUMBLE_HOME/venv"
  TWOBONE_PLATFORM=jammy
fi

# the requirement files of this distribution's venv (Humble's ROS comes from its build)
twobone_requirements() {
  local name
  if [ "$TWOBONE_DISTRO" = humble ]; then
    set -- "$TWOBONE_PLATFORM" runtime ros-python
  else
    set -- "$TWOBONE_DISTRO" "$TWOBONE_PLATFORM" runtime ros-python dev
  fi
  for name in "$@"; do echo "$TWOBONE_ROOT/requirements/$name.txt"; done
}

twobone_requirements_stamp() {
  local files
  mapfile -t files < <(twobone_requirements)
  cat "${files[@]}" | sha256sum | cut -c1-16
}

twobone_ensure_venv() {
  local stamp
  stamp="$(twobone_requirements_stamp)"
  if [ -x "$TWOBONE_VENV/bin/python" ] && [ "$(cat "$TWOBONE_VENV/.stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  if [ -n "$TWOBONE_CPP_HOME$TWOBONE_HUMBLE_HOME" ] && [ -x "$TWOBONE_VENV/bin/python" ]; then
    # the C++ (or Humble) build names this venv's files: add what changed, never start again
    echo "scripts: updating $TWOBONE_VENV (the requirements changed)" >&2
  else
    echo "scripts: creating $TWOBONE_VENV (ROS 2 $TWOBONE_DISTRO wheels from PyPI)" >&2
    rm -rf "$TWOBONE_VENV"
    "$TWOBONE_PYTHON" -m venv "$TWOBONE_VENV" || return 1
  fi
  # pip prints a warning per package for each configured index folder that is
  # absent on this machine; keep only real messages
  local file arguments=()
  while read -r file; do arguments+=(-r "$file"); done < <(twobone_requirements)
  "$TWOBONE_VENV/bin/python" -m pip install --disable-pip-version-check -q "${arguments[@]}" \
    2> >(grep -v 'is ignored: it is neither' >&2) || return 1
  echo "$stamp" > "$TWOBONE_VENV/.stamp"
}

# Source the colcon workspace $1 (its install/setup.bash).  Those scripts read
# unset variables, so `set -u` is lifted around them and restored after.
twobone_source_workspace() {
  local had_u=0
  case $- in *u*) had_u=1; set +u ;; esac
  # shellcheck disable=SC1090,SC1091
  source "$1/install/setup.bash"
  [ "$had_u" = 0 ] || set -u
}

# launch, launch_testing, launch_pytest, ros2cli and tf2_ros have no PyPI
# wheels.  Where TWOBONE_ROS_SOURCES names a folder with their sources and an
# install.sh (../shared/ros2-launch in CI), build them into the venv once
# (about 2 minutes; seconds when nothing changed) and put them on the paths.
# Without it, the tests that need them are skipped and say how to enable them;
# a sourced ROS install provides them instead.
twobone_ensure_ros_tools() {
  [ -n "${TWOBONE_ROS_SOURCES:-}" ] || return 0
  local sources workspace
  sources="$(cd "$TWOBONE_ROS_SOURCES" 2>/dev/null && pwd)" || {
    echo "scripts: TWOBONE_ROS_SOURCES=$TWOBONE_ROS_SOURCES is not a folder" >&2; return 1; }
  [ -f "$sources/install.sh" ] || {
    echo "scripts: $sources has no install.sh" >&2; return 1; }
  workspace="$TWOBONE_VENV-ros2-ws"
  bash "$sources/install.sh" "$TWOBONE_VENV" "$workspace" >&2 || return 1
  export PATH="$TWOBONE_VENV/bin:$PATH"
  export AMENT_PREFIX_PATH="$TWOBONE_VENV${AMENT_PREFIX_PATH:+:$AMENT_PREFIX_PATH}"
  export CMAKE_PREFIX_PATH="$TWOBONE_VENV${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  twobone_source_workspace "$workspace"
  return 0
}

# The C++ stack of TWOBONE_ROS_CPP_SOURCES (see above), built once into
# TWOBONE_CPP_HOME/ws and sourced.  Needs root the first time (build.sh
# installs Debian's urdfdom, orocos-kdl, boost, ... with apt-get).  One build at
# a time per machine: a second run waits for the first.
twobone_ensure_cpp_stack() {
  [ -n "$TWOBONE_CPP_HOME" ] || return 0
  twobone_cpp_stack_built || twobone_build_cpp_stack || return 1
  twobone_source_workspace "$TWOBONE_CPP_HOME/ws"
}

twobone_cpp_stack_built() {  # true when there is nothing to build (no stack, or built)
  [ -z "$TWOBONE_CPP_HOME" ] || [ -f "$TWOBONE_CPP_HOME/.built" ]
}

twobone_build_cpp_stack() {
  local start=$SECONDS cpu end_cpu
  twobone_children_cpu_s cpu
  echo "scripts: building the C++ stack of $TWOBONE_ROS_CPP_SOURCES into $TWOBONE_CPP_HOME/ws" \
    "(once per machine: 20 to 30 minutes on 2 cores; log: $TWOBONE_CPP_HOME/build.log)" >&2
  # shellcheck disable=SC2086  (the flags are words)
  env $TWOBONE_CPP_BUILD bash "$TWOBONE_ROS_CPP_SOURCES/build.sh" "$TWOBONE_VENV" "$TWOBONE_VENV-ros2-ws" \
    "$TWOBONE_CPP_HOME/ws" > "$TWOBONE_CPP_HOME/build.log" 2>&1 || {
      tail -40 "$TWOBONE_CPP_HOME/build.log" >&2
      echo "scripts: the C++ build failed (whole log: $TWOBONE_CPP_HOME/build.log)" >&2
      return 1; }
  touch "$TWOBONE_CPP_HOME/.built"
  twobone_children_cpu_s end_cpu
  echo "scripts: the C++ stack built in $(( SECONDS - start )) s ($(( end_cpu - cpu )) s of CPU)" >&2
}

# Sets the variable named $1 to the CPU seconds (user + system) of the children
# this shell has waited for, and of theirs: the kernel's cutime and cstime of the
# shell (fields 16 and 17 of /proc/PID/stat, in ticks of 1/100 s).  No fork: a
# command substitution would read its own fork's.
twobone_children_cpu_s() {
  local stat
  read -r -a stat < "/proc/$BASHPID/stat" || stat=()
  printf -v "$1" '%d' $(( (${stat[15]:-0} + ${stat[16]:-0}) / 100 ))
}

# ROS 2 Humble from TWOBONE_ROS_HUMBLE_SOURCES (see above) into TWOBONE_HUMBLE_HOME
# (venv, ws), then this distribution's requirements into its venv, and sourced.
# Its launch, launch_ros, launch_testing, ros2cli and tf2_ros come with it.
# launch_pytest is not among its sources: the one of TWOBONE_ROS_SOURCES (pure
# Python, Kilted's) is installed beside it; it runs on Humble's launch 1.0.
twobone_ensure_humble() {
  local copy start=$SECONDS cpu end_cpu
  if [ ! -f "$TWOBONE_HUMBLE_HOME/.built" ]; then
    twobone_children_cpu_s cpu
    echo "scripts: building ROS 2 Humble from $TWOBONE_ROS_HUMBLE_SOURCES into $TWOBONE_HUMBLE_HOME" \
      "(once per machine: about 15 to 35 minutes on 2 cores; log: $TWOBONE_HUMBLE_HOME/build.log)" >&2
    # shellcheck disable=SC2086  (the flags are words)
    env NICE=0 SMOKE_DOMAIN_ID="$ROS_DOMAIN_ID" $TWOBONE_HUMBLE_BUILD \
      bash "$TWOBONE_ROS_HUMBLE_SOURCES/build.sh" "$TWOBONE_HUMBLE_HOME" \
      > "$TWOBONE_HUMBLE_HOME/build.log" 2>&1 || {
        tail -40 "$TWOBONE_HUMBLE_HOME/build.log" >&2
        echo "scripts: the Humble build failed (whole log: $TWOBONE_HUMBLE_HOME/build.log)" >&2
        return 1; }
    touch "$TWOBONE_HUMBLE_HOME/.built"
    twobone_children_cpu_s end_cpu
    echo "scripts: ROS 2 Humble built in $(( SECONDS - start )) s ($(( end_cpu - cpu )) s of CPU)" >&2
  fi
  twobone_ensure_venv || return 1
  if [ -n "${TWOBONE_ROS_SOURCES:-}" ] \
      && ! "$TWOBONE_VENV/bin/python" -m pip show -q launch_pytest >/dev/null 2>&1; then
    copy="$(mktemp -d)"  # pip builds in the source folder: not in ../shared
    cp -r "$TWOBONE_ROS_SOURCES/src/launch/launch_pytest" "$copy/" \
      && "$TWOBONE_VENV/bin/python" -m pip install --disable-pip-version-check -q --no-deps \
        --no-build-isolation "$copy/launch_pytest" || { rm -rf "$copy"; return 1; }
    rm -rf "$copy"
  fi
  export PATH="$TWOBONE_VENV/bin:$PATH"
  twobone_source_workspace "$TWOBONE_HUMBLE_HOME/ws"
}

# Everything that builds into TWOBONE_CPP_HOME (or TWOBONE_HUMBLE_HOME) runs under
# one lock (flock), so a CI run and a session's run on one machine never build
# into it together.
# With --background, a C++ stack still to be built is built behind the caller's
# back: the venv and the launch tools are made first, then the build starts in a
# session of its own (autogroup: it gets its own share of the CPU beside the
# tests the caller runs meanwhile) and keeps the lock until it ends;
# TWOBONE_CPP_BUILD_PID names it, and twobone_await_cpp_stack waits for it and
# sources the workspace.
TWOBONE_CPP_BUILD_PID=""
twobone_ensure_all() {
  local home="$TWOBONE_CPP_HOME$TWOBONE_HUMBLE_HOME"
  if [ -z "$home" ]; then
    twobone_ensure_venv && twobone_ensure_ros_tools
    return
  fi
  mkdir -p "$home" || return 1
  exec {twobone_lock}>"$home.lock"
  flock "$twobone_lock" || return 1
  local status=0
  if [ -n "$TWOBONE_HUMBLE_HOME" ]; then
    twobone_ensure_humble || status=$?
  elif [ "${1:-}" = --background ] && ! twobone_cpp_stack_built; then
    { twobone_ensure_venv && twobone_ensure_ros_tools; } || status=$?
    if [ "$status" = 0 ]; then
      # the build's subshell holds the lock (an inherited descriptor): close ours, no unlock
      setsid -w bash -c "$(declare -f twobone_build_cpp_stack twobone_children_cpu_s)
        $(declare -p TWOBONE_ROS_CPP_SOURCES TWOBONE_CPP_HOME TWOBONE_CPP_BUILD TWOBONE_VENV)
        twobone_build_cpp_stack" &
      TWOBONE_CPP_BUILD_PID=$!
      exec {twobone_lock}>&-
      return 0
    fi
  else
    { twobone_ensure_venv && twobone_ensure_ros_tools && twobone_ensure_cpp_stack; } || status=$?
  fi
  flock -u "$twobone_lock"
  return "$status"
}

twobone_await_cpp_stack() {  # the build --background started: its status; sourced when built
  if [ -n "$TWOBONE_CPP_BUILD_PID" ]; then
    wait "$TWOBONE_CPP_BUILD_PID" || return 1
    TWOBONE_CPP_BUILD_PID=""
  fi
  twobone_ensure_cpp_stack
}

# Discovery stays on this machine, in a domain of this run's own (1..101):
# Iron and later read the range; Humble reads ROS_LOCALHOST_ONLY instead (set
# for it alone: Jazzy warns in every process that it is deprecated).
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
if [ "$TWOBONE_DISTRO" = humble ]; then
  export ROS_LOCALHOST_ONLY=1
fi
export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-$(( 1 + $$ % 101 ))}"
export ROS_DISTRO="$TWOBONE_DISTRO"
export PYTHONPATH="$TWOBONE_ROOT${PYTHONPATH:+:$PYTHONPATH}"
