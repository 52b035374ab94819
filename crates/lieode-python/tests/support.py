"""What several test files need: an example script as a module, and a Ctrl-C sent during a run."""

import importlib.util
import os
import signal
import threading
import time
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load_example(name):
    """The example script ``examples/<name>.py`` as a module (its ``main`` not run)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def interrupt_after(seconds):
    """Sends SIGINT to this process ``seconds`` from now, from another thread, as Ctrl-C
    would; returns a list that then holds the ``time.perf_counter()`` of the sending. Skips
    the test where signals cannot reach the main thread."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    # A shell starts a background job with SIGINT ignored, and Python then keeps it ignored:
    # Python's own handler, as an interactive run has it.
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    sent = []

    def interrupt():
        time.sleep(seconds)
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt).start()
    return sent
