"""
A launch_pytest launch that never becomes ready fails its test in bounded time.

launch_pytest starts a launch fixture's description and waits for its
``ReadyToTest`` action before it runs the test, with no bound: a launch
file that raises, or whose processes die, before ``ReadyToTest`` leaves the
test waiting until CI's own limit.  This plugin (``pytest_plugins`` in
conftest.py) wraps the setup of each launch_pytest fixture: on the event
loop launch_pytest waits on, it looks every ``POLL_S`` whether the launch
has already ended (its ``run_async`` task is done: it can no longer become
ready) and gives up after ``TWOBONE_LAUNCH_READY_S`` seconds (default
``READY_S``); either way it stops the loop, which ends launch_pytest's wait
with an error, and the test fails saying which it was.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os
import time

import pytest

#: seconds a launch may take to reach ReadyToTest (a busy machine starts one in well under 60)
READY_S = 120.0
POLL_S = 0.25


class LaunchNotReady(Exception):
    """The launch of a launch_pytest fixture ended, or took too long, before ReadyToTest."""


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_fixture_setup(fixturedef, request):
    """Bound the wait for a launch_pytest fixture's ReadyToTest (see the module docstring)."""
    if not getattr(fixturedef.func, '_launch_pytest_fixture', False):
        yield
        return
    launch_service = request.getfixturevalue('launch_service')
    loop = request.getfixturevalue('event_loop')
    bound = float(os.environ.get('TWOBONE_LAUNCH_READY_S', READY_S))
    deadline = time.monotonic() + bound
    why = []
    pending = []

    def look():
        if why:  # ReadyToTest ran (an empty reason), or the loop was stopped already
            return
        task = getattr(launch_service, 'task', None)
        if task is not None and task.done():
            error = None if task.cancelled() else task.exception()
            why.append('the launch ended before ReadyToTest'
                       + (f': {type(error).__name__}: {error}' if error else ''))
        elif time.monotonic() > deadline:
            why.append(f'the launch was not ready within {bound:g} s')
        if why and why[0]:
            _report(why[0])
            loop.stop()  # ends launch_pytest's run_until_complete with an error
        elif not why:
            pending[:] = [loop.call_later(POLL_S, look)]

    pending.append(loop.call_later(POLL_S, look))
    outcome = yield
    if launch_service.task is not None:  # launch_pytest's wait, around this hook, is over
        for handle in pending:
            handle.cancel()
        if why:
            outcome.force_exception(LaunchNotReady(why[0]))
        return
    # registered before launch_pytest (``-p``), this hook is inside its: the wait comes next,
    # and the guard goes on until ReadyToTest runs (a failure is launch_pytest's error then,
    # the reason printed here)
    from launch_pytest.plugin import get_ready_to_test_action
    result = outcome.get_result()
    ready = get_ready_to_test_action(result[0] if isinstance(result, (list, tuple)) else result)
    ready._add_callback(lambda: why.append(''))  # what launch_pytest itself hooks on to


def _report(why):
    """Print why a launch was given up (when launch_pytest's own error is what fails)."""
    print(f'launch_guard: {why}')
