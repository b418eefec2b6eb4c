"""Calling the compiled (numba) kernels: array types and layouts, and the thread count.

Numba compiles a kernel once per combination of argument types, and an array's type includes its
layout and whether it is writeable: a read-only array (``np.load(..., mmap_mode="r")``, a joblib
memmap, ``a.setflags(write=False)``) or a non-contiguous view would trigger a second compilation
of every kernel it reaches (seconds each), and would not hit the on-disk cache either. Every
array handed to a kernel therefore goes through :func:`kernel_array`, which returns it unchanged
when it already is a writeable C-contiguous array of the right dtype (the usual case, no copy)
and otherwise a copy that is: one compiled signature per kernel whatever the caller passed.

:func:`numba_threads` runs a block with numba's parallel kernels (``prange``) on ``n_jobs``
threads and restores the previous count afterwards; it is how estimators with parallel kernels
implement their ``n_jobs`` parameter. :func:`single_blas_thread` limits BLAS to one thread for a
block (``threadpoolctl``, a dependency of scikit-learn): inside our own parallel blocks, where
nested BLAS threads oversubscribe the cores, and around small products, where a threaded BLAS
spends longer waking its workers than computing (on a busy two-core machine a ``5,000 × 61``
cross product took 350 ms with two threads and 0.7 ms with one). Matrix products keep their
threads from a smaller size while another core is idle (:func:`core_is_free`, read from the
machine's CPU counters).

Kernels with explicit signatures take the other route, with no copy: they declare the arrays they
only read as :func:`readonly`, a type numba converts writeable arrays to safely, so one compiled
version (loaded from the on-disk cache) serves writeable, read-only and memory-mapped input alike;
arrays a kernel writes are declared :func:`writeable` (its caller owns those buffers), and a
matrix read in place in either order gets one signature per order (:func:`either_layout`, with
strided views copied by :func:`contiguous`). Kernels whose inputs are large (the data matrix)
prefer signatures; :func:`kernel_array` suits kernels without them and small fitted arrays.

Numba compiles a kernel with explicit signatures when the module is imported, every signature
at once: on a fresh cache, importing the package would compile kernels a run never calls
(those of estimators it does not use, and the second layout of :func:`either_layout`).
:func:`lazy_kernel` defers that to the first call and compiles only the signature the call
needs. :func:`cache_is_cold` tells whether a kernel has yet to be compiled into the on-disk
cache, so that a command can say that its first run compiles kernels once
(:data:`FIRST_RUN_NOTICE`); :func:`compile_timer` measures the seconds a block spends compiling
(numba's event API), so that a time budget can leave that one-off cost out.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time

import numba
import numpy as np
from numba import types
from numba.core import event

__all__ = [
    "B1",
    "F8",
    "FIRST_RUN_NOTICE",
    "I8",
    "cache_is_cold",
    "compile_timer",
    "contiguous",
    "either_layout",
    "kernel_array",
    "lazy_kernel",
    "numba_threads",
    "readonly",
    "resolve_n_threads",
    "single_blas_thread",
    "writeable",
]

_BLAS_CONTROLLER = []  # threadpoolctl's controllers of the loaded BLAS libraries


def kernel_array(a, dtype=np.float64) -> np.ndarray:
    """``a`` as a writeable, aligned, C-contiguous array of ``dtype``.

    Parameters
    ----------
    a : array-like
    dtype : data-type or None, default=float64
        ``None`` keeps the dtype of ``a``.

    Returns
    -------
    ndarray
        ``a`` itself when it already qualifies, else a C-ordered copy.
    """
    arr = np.asarray(a) if dtype is None else np.asarray(a, dtype=dtype)
    flags = arr.flags
    if flags.c_contiguous and flags.writeable and flags.aligned:
        return arr
    return np.array(arr, order="C", copy=True)


def resolve_n_threads(n_jobs) -> int | None:
    """Threads for ``n_jobs``: ``None`` → ``None`` (numba's current setting), ``k > 0`` → ``k``,
    ``-1`` → every thread numba has, ``-2`` → all but one, ... (at least 1, at most numba's
    ``NUMBA_NUM_THREADS``)."""
    if n_jobs is None:
        return None
    total = numba.config.NUMBA_NUM_THREADS
    n = int(n_jobs) if n_jobs > 0 else total + 1 + int(n_jobs)
    return int(min(max(n, 1), total))


@contextlib.contextmanager
def numba_threads(n_jobs):
    """Run the block with numba's parallel kernels on ``n_jobs`` threads.

    Parameters
    ----------
    n_jobs : int or None
        As scikit-learn's ``n_jobs`` (see :func:`resolve_n_threads`); ``None`` leaves numba's
        current thread count (all cores unless ``NUMBA_NUM_THREADS`` or
        :func:`numba.set_num_threads` said otherwise) untouched.

    Notes
    -----
    :func:`numba.set_num_threads` applies to the calling thread only; the previous value is
    restored on exit, also when the block raises.
    """
    n = resolve_n_threads(n_jobs)
    if n is None:
        yield
        return
    previous = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


#: Matrix products (``gemm``, ``syrk``) of at least this many multiply-adds keep BLAS's threads
#: when a core is free (:func:`core_is_free`). Measured on an idle two-core machine, two threads
#: take 0.6 × one thread's time for the ``XᵀX`` of 10,000 × 100 (2^26.6) and of 2,000 × 100
#: (2^24.3), and 0.9 × at 2^22; factorisations (QR, SVD) gain only from about 2^27 and are slower
#: below it (``gesdd`` of 5,000 × 100: 2.0 ×), so they keep the busy-machine bound.
PRODUCT_THREADS_FROM = 2**23

#: Seconds between two readings of the machine's load (:func:`core_is_free`).
LOAD_WINDOW = 0.2

_LOAD = {"time": None, "busy": 0.0, "own": 0.0, "free": False}

try:
    _CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
    CORES = len(os.sched_getaffinity(0))
except (AttributeError, ValueError, OSError):  # pragma: no cover - not Linux
    _CLOCK_TICKS, CORES = 100, os.cpu_count() or 1


def _machine_busy_seconds() -> float | None:
    """CPU seconds every process of the machine has used since boot (Linux's ``/proc/stat``)."""
    try:
        with open("/proc/stat", "rb") as f:
            fields = f.readline().split()
    except OSError:  # pragma: no cover - not Linux
        return None
    # user nice system idle iowait irq softirq steal: all but idle and iowait are busy time
    ticks = [int(v) for v in fields[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / _CLOCK_TICKS


def core_is_free() -> bool:
    """Whether a core beyond the calling thread's is idle: the other processes of the machine
    used at most ``cores − 1.5`` cores since the last reading (at most every
    :data:`LOAD_WINDOW` seconds, from ``/proc/stat`` less this process's own CPU time, so that
    our own BLAS threads do not count against themselves).

    The first reading of a process uses the one-minute load average instead. Off Linux, and on
    one core, the answer is False (BLAS keeps the busy-machine rule).
    """
    now = time.monotonic()
    last = _LOAD["time"]
    if last is not None and now - last < LOAD_WINDOW:
        return _LOAD["free"]
    busy = _machine_busy_seconds()
    if busy is None or CORES < 2:
        _LOAD.update(time=now, free=False)
        return False
    t = os.times()
    own = t.user + t.system
    if last is None:
        free = os.getloadavg()[0] <= CORES - 1
    else:
        others = (busy - _LOAD["busy"]) - (own - _LOAD["own"])
        free = others <= (CORES - 1.5) * (now - last)
    _LOAD.update(time=now, busy=busy, own=own, free=free)
    return free


def single_blas_thread(flops=None, *, above=2**27, below=0, quiet_above=None):
    """Context limiting BLAS to one thread (a no-op when ``flops`` exceeds ``above`` or is at
    most ``below``).

    Parameters
    ----------
    flops : int or None, default=None
        Multiply-adds of the products inside the block; ``None`` always limits.
    above : int, default=2**27
        Products larger than this keep every BLAS thread.
    below : int, default=0
        Products this small are left alone: setting the limit and undoing it costs ~10 µs,
        more than threads lose on a product of ~2²⁰ multiply-adds (a fraction of a millisecond).
    quiet_above : int, optional
        The bound that replaces ``above`` while a core is free (:func:`core_is_free`): matrix
        products pass :data:`PRODUCT_THREADS_FROM`. On a busy machine a second BLAS thread
        shares its core with another process and the whole product waits for it (the threaded
        ``XᵀX`` of 10,000 × 100 took 2.5 × one thread's time with one other process running),
        so there the rule stays ``above``.

    Returns
    -------
    contextmanager
        ``threadpoolctl``'s limit, or :func:`contextlib.nullcontext`.
    """
    if flops is not None:
        if flops <= below:
            return contextlib.nullcontext()
        if flops > above or (quiet_above is not None and flops > quiet_above and core_is_free()):
            return contextlib.nullcontext()
    if not _BLAS_CONTROLLER:
        try:  # a dependency of scikit-learn
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover
            return contextlib.nullcontext()
        _BLAS_CONTROLLER.extend(ThreadpoolController().select(user_api="blas").lib_controllers)
    return _one_blas_thread()


@contextlib.contextmanager
def _one_blas_thread():
    """Every loaded BLAS on one thread for the block, through ``threadpoolctl``'s controllers
    of the libraries (4.6 µs with NumPy's and SciPy's BLAS loaded, against 5.9 µs for a
    ``ThreadpoolController.limit``)."""
    previous = [lib.get_num_threads() for lib in _BLAS_CONTROLLER]
    for lib, n in zip(_BLAS_CONTROLLER, previous, strict=True):
        if n != 1:
            lib.set_num_threads(1)
    try:
        yield
    finally:
        for lib, n in zip(_BLAS_CONTROLLER, previous, strict=True):
            if n != 1:
                lib.set_num_threads(n)


# Explicit signatures: arrays a kernel only reads are typed read-only.

F8 = types.float64
I8 = types.int64
B1 = types.boolean


def readonly(ndim: int = 1, layout: str = "C", dtype=types.float64):
    """An array argument the kernel does not write (accepts writeable arrays too)."""
    return types.Array(dtype, ndim, layout, readonly=True)


def writeable(ndim: int = 1, layout: str = "C", dtype=types.float64):
    """An array argument the kernel writes into."""
    return types.Array(dtype, ndim, layout)


def either_layout(*rest, ndim: int = 2) -> list:
    """Signatures for a kernel whose first argument is a read-only data matrix in C or Fortran
    order, followed by the argument types ``rest`` (one compiled version per order, so data in
    either order are read in place). Pass the matrix through :func:`contiguous`."""
    return [(readonly(ndim, layout), *rest) for layout in ("C", "F")]


def contiguous(a: np.ndarray) -> np.ndarray:
    """``a`` itself when it is C- or Fortran-contiguous, else a C-contiguous copy (a strided
    view matches neither compiled layout)."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return a
    return np.ascontiguousarray(a)


def _layout(value) -> str:
    """The layout numba types an array with (``"C"`` first when it is contiguous both ways)."""
    flags = value.flags
    return "C" if flags.c_contiguous else ("F" if flags.f_contiguous else "A")


def _layout_matches(nb_type, value) -> bool:
    if not isinstance(nb_type, types.Array) or not isinstance(value, np.ndarray):
        return True
    return nb_type.layout in ("A", _layout(value))


class _LazyKernel:
    """A kernel compiled (or loaded from the on-disk cache) at its first call, one signature per
    array layout met; see :func:`lazy_kernel`."""

    def __init__(self, py_func, signatures, options):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.signatures_declared = list(signatures)
        self._options = options
        self._compiled = {}

    @property
    def signatures(self) -> list:
        """The signatures compiled so far (as a numba dispatcher's ``signatures``)."""
        return [sig for kernel in self._compiled.values() for sig in kernel.signatures]

    def _select(self, args):
        for sig in self.signatures_declared:
            if len(sig) == len(args) and all(map(_layout_matches, sig, args)):
                return sig
        return self.signatures_declared[0]  # numba then names the mismatching argument

    def __call__(self, *args):
        key = tuple(_layout(a) for a in args if isinstance(a, np.ndarray))
        kernel = self._compiled.get(key)
        if kernel is None:
            sig = self._select(args)
            kernel = numba.njit([sig], **self._options)(self.py_func)
            self._compiled[key] = kernel
        return kernel(*args)


def lazy_kernel(signatures, **options):
    """``numba.njit(signatures, **options)`` compiled at the first call instead of at import.

    Parameters
    ----------
    signatures : tuple or list of tuples
        Explicit argument types (as for :func:`numba.njit`); the first call compiles the one
        whose array layouts match its arguments (``"C"`` or ``"F"``, see :func:`either_layout`).
    **options
        Passed to :func:`numba.njit` (``cache=True``, ``nogil``, ``parallel``, ...).

    Returns
    -------
    callable
        Decorator. The kernel it makes is called from Python only (not from other kernels).
    """
    sigs = [signatures] if isinstance(signatures, tuple) else list(signatures)

    def decorate(py_func):
        return _LazyKernel(py_func, sigs, options)

    return decorate


#: What a command prints before its first run compiles the kernels into the on-disk cache.
FIRST_RUN_NOTICE = (
    "note: first run: compiling the numerical kernels once (this can take a minute or two); "
    "they are cached on disk, and later runs start in seconds"
)


def cache_is_cold(*kernels) -> bool:
    """Whether some of ``kernels`` (numba dispatchers with ``cache=True``) has nothing in the
    on-disk cache yet: their first call will compile.

    Parameters
    ----------
    *kernels : numba dispatchers

    Returns
    -------
    bool
        ``False`` when every kernel has a cache index, or when this cannot be told.
    """
    for kernel in kernels:
        cache = getattr(kernel, "_cache", None)
        index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
        if index is not None and not os.path.exists(index):
            return True
    return False


class _CompileTimer(event.Listener):
    """Seconds spent compiling numba kernels while installed (outermost compilations only: a
    kernel compiles the kernels it calls inside its own compilation)."""

    def __init__(self):
        self.seconds = 0.0
        self._lock = threading.Lock()
        self._depth = {}
        self._start = {}

    def on_start(self, ev):
        me = threading.get_ident()
        with self._lock:
            depth = self._depth.get(me, 0)
            if depth == 0:
                self._start[me] = time.perf_counter()
            self._depth[me] = depth + 1

    def on_end(self, ev):
        me = threading.get_ident()
        with self._lock:
            depth = self._depth.get(me, 0)
            if depth == 0:  # began before the timer was installed: not counted
                return
            self._depth[me] = depth - 1
            if depth == 1:
                self.seconds += time.perf_counter() - self._start.pop(me)


@contextlib.contextmanager
def compile_timer():
    """Measure the time a block spends compiling numba kernels.

    Yields
    ------
    timer
        Its ``seconds`` attribute is the wall-clock time spent compiling so far (loading a
        kernel from the on-disk cache is not compiling).
    """
    timer = _CompileTimer()
    with event.install_listener("numba:compile", timer):
        yield timer
