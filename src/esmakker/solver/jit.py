"""The optional numba decorator: ``maybe_jit`` compiles where numba is installed.

numba is imported here only, and only if it is installed (the ``esmakker[solver]``
extra); without it the kernel's functions stay plain Python and give the same answers.
Compiled functions release the GIL (``nogil``): a search in a worker thread (the game
server's analysis) leaves the event loop free.
Set ``ESMAKKER_SOLVER_PURE=1`` to keep them plain even where numba is installed.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

HAVE_NUMBA = (
    importlib.util.find_spec("numba") is not None
    and importlib.util.find_spec("numpy") is not None
    and os.environ.get("ESMAKKER_SOLVER_PURE", "") != "1"
)


def plain(function: F) -> F:
    """Return the function unchanged (the pure-Python path)."""
    return function


def _compiler(cache: bool) -> Callable[[F], F]:
    if not HAVE_NUMBA:
        return plain
    import numba  # type: ignore[import-untyped, unused-ignore]

    compile_: Callable[[F], F] = numba.njit(cache=cache, nogil=True)  # type: ignore[assignment, unused-ignore]
    return compile_


maybe_jit: Callable[[F], F] = _compiler(cache=True)
maybe_jit_uncached: Callable[[F], F] = _compiler(cache=False)
"""For recursive functions: numba's cache of a recursive function crashes when it is loaded
again (a segmentation fault; numba issue #6061, seen here with numba 0.62), so they are
compiled once per process (a few seconds); their helpers are cached."""


def bit_intrinsics() -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]] | None:
    """Return numba intrinsics counting a mask's set bits and its trailing and leading zeros
    (LLVM's ``ctpop``, ``cttz`` and ``ctlz``: one instruction each on current CPUs), or
    ``None`` without numba. They can be called from compiled code only.
    """
    if not HAVE_NUMBA:
        return None
    from numba import types  # type: ignore[import-untyped, unused-ignore]
    from numba.extending import intrinsic  # type: ignore[import-untyped, unused-ignore]

    def make(op: str) -> Callable[..., Any]:
        @intrinsic  # type: ignore[misc, unused-ignore]
        def bits(typingctx: Any, mask: Any) -> Any:
            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                value = args[0]
                if op == "ctpop":
                    return builder.ctpop(value)
                zero_is_poison = context.get_constant(types.boolean, False)
                if op == "cttz":
                    return builder.cttz(value, zero_is_poison)
                return builder.ctlz(value, zero_is_poison)

            return types.int64(types.int64), codegen

        return bits

    return make("ctpop"), make("cttz"), make("ctlz")


def bmi2_intrinsics() -> tuple[Callable[..., Any], Callable[..., Any]] | None:
    """Return numba intrinsics for the BMI2 instructions ``pext`` (gather a value's bits
    under a mask into the low bits) and ``pdep`` (scatter low bits to a mask's places),
    or ``None`` without numba, where the CPU lacks BMI2, or where it runs them in
    microcode (AMD before Zen 3: slower than the plain loops). Compiled code only.
    """
    if not HAVE_NUMBA:
        return None
    import llvmlite.binding as llvm  # type: ignore[import-untyped, unused-ignore]

    try:
        features = llvm.get_host_cpu_features()
        cpu = llvm.get_host_cpu_name()
    except RuntimeError:  # some platforms cannot tell; the plain loops serve everywhere
        return None
    if not features.get("bmi2", False) or cpu in ("znver1", "znver2"):
        return None
    from llvmlite import ir  # type: ignore[import-untyped, unused-ignore]
    from numba import types
    from numba.core import cgutils  # type: ignore[import-untyped, unused-ignore]
    from numba.extending import intrinsic

    def make(name: str) -> Callable[..., Any]:
        @intrinsic  # type: ignore[misc, unused-ignore]
        def bits(typingctx: Any, value: Any, mask: Any) -> Any:
            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                word = ir.IntType(64)
                kind = ir.FunctionType(word, [word, word])
                function = cgutils.get_or_insert_function(builder.module, kind, name)  # type: ignore[no-untyped-call, unused-ignore]
                return builder.call(function, args)

            return types.int64(types.int64, types.int64), codegen

        return bits

    return make("llvm.x86.bmi.pext.64"), make("llvm.x86.bmi.pdep.64")


def borrow_intrinsic() -> Callable[..., Any] | None:
    """Return a numba intrinsic giving an array view without its reference count, or
    ``None`` without numba. It can be called from compiled code only.

    Every call of a compiled function takes and drops a reference to each array it is
    passed (an atomic add on the array's counter): a third of the search's time went to
    that. A view whose counter is null skips it; the caller keeps the arrays alive.
    """
    if not HAVE_NUMBA:
        return None
    from numba.core import cgutils  # type: ignore[import-untyped, unused-ignore]
    from numba.extending import intrinsic  # type: ignore[import-untyped, unused-ignore]

    @intrinsic  # type: ignore[misc, unused-ignore]
    def borrowed(typingctx: Any, array: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            view = context.make_array(signature.args[0])(context, builder, value=args[0])
            view.meminfo = cgutils.get_null_value(view.meminfo.type)  # type: ignore[no-untyped-call, unused-ignore]
            return view._getvalue()

        return array(array), codegen

    return borrowed
