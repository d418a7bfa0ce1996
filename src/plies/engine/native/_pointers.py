"""Raw pointers in compiled code: to arrays' data (how the kernel passes arrays cheaply,
see its docstring) and to the rules' code (how it calls them)."""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

__all__ = ["call", "offset", "prefetch", "ptr"]


@intrinsic
def ptr(typingctx: Any, array: Any) -> Any:
    """The data pointer of a C-contiguous array: what the rules receive. (Arrays cost
    a struct and two reference counts per rule call; pointers halved a toy walk's time
    per node, 0.10 to 0.05 us.)"""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.make_array(array)(context, builder, args[0]).data

    return types.CPointer(array.dtype)(array), codegen


@intrinsic
def offset(typingctx: Any, pointer: Any, count: Any) -> Any:
    """``pointer`` moved ``count`` items on (C's ``pointer + count``)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.gep(args[0], [args[1]])

    return pointer(pointer, count), codegen


@intrinsic
def prefetch(typingctx: Any, pointer: Any, index: Any) -> Any:
    """Start loading item ``index`` of the array at ``pointer`` into the caches and go
    on (LLVM's prefetch: for reading, kept in every cache level). Loads the search
    will make soon then overlap instead of waiting one after another."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        bytes_ = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        function = builder.module.declare_intrinsic(
            "llvm.prefetch", [bytes_], ir.FunctionType(ir.VoidType(), [bytes_, int32, int32, int32])
        )
        address = builder.bitcast(builder.gep(args[0], [args[1]]), bytes_)
        # read (0), keep in all levels (3), data cache (1)
        builder.call(function, [address, int32(0), int32(3), int32(1)])
        return context.get_dummy_value()

    return types.void(pointer, index), codegen


def _call_typer(typingctx: Any, kind: Any, address: Any, args: Any) -> Any:
    from plies.engine.native._protocol import SIGNATURES

    if not isinstance(kind, types.StringLiteral) or kind.literal_value not in SIGNATURES:
        return None
    wanted = SIGNATURES[kind.literal_value]
    if not isinstance(args, types.BaseTuple) or len(args) != len(wanted.args):
        return None
    given: list[Any] = [args[i] for i in range(len(args))]

    def codegen(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
        _, address_value, packed = arguments
        values = [
            context.cast(builder, builder.extract_value(packed, i), given[i], expected)
            for i, expected in enumerate(wanted.args)
        ]
        function_type = ir.FunctionType(
            context.get_value_type(wanted.return_type),
            [context.get_value_type(t) for t in wanted.args],
        )
        function = builder.inttoptr(address_value, function_type.as_pointer())
        result = builder.call(function, values)
        if wanted.return_type == types.none:
            return context.get_dummy_value()
        return result

    return wanted.return_type(kind, address, args), codegen


#: ``call("play", address, (consts, state, move, child))``: call the compiled rule
#: ``kind`` at ``address`` (from ``NativeGame.rules``) with the arguments its signature
#: (the protocol's ``SIGNATURES``) names, the way C calls a function pointer.
call = intrinsic(_call_typer)
