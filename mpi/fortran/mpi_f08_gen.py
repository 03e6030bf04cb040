#!/usr/bin/env python3
"""Generate the `mpi_f08` module and its entry points from the description of the API.

  mpi_f08_gen.py OUTDIR     write OUTDIR/mpi_f08.f90 (the module: types, constants, interfaces),
                            OUTDIR/f08_entry.cpp (the procedures the interfaces bind to) and
                            OUTDIR/mpi_f08_functions.txt (what the module has and what it lacks)
  mpi_f08_gen.py --list     print which functions of mpi.h have an mpi_f08 procedure, and why not
  mpi_f08_gen.py --check-symbols MODULE.f90 LIB...
                            check that every procedure the module declares is a symbol each
                            library exports (a profiling name PMPI_x and a weak MPI_x for the
                            entry points); exits 1 naming each one missing

The description is the one the C and Fortran sides already share: the prototypes of
mpi/include/mpi.h (the order and C type of every argument), the constants of mpif.h (their values)
and the Fortran bindings mpi_x_ of mpi/fortran/f_*.cpp (which functions Fortran has). What C
cannot say about Fortran 2008 (which int is a LOGICAL, which void* is a choice buffer and which an
address-sized integer, which calls complete later) is the small table of rules below. A function
that has a C prototype and a Fortran binding gets its mpi_f08 procedure without further work; one
the rules cannot map is listed in mpi_f08_functions.txt with the reason, never dropped silently.

Every procedure calls the function's Fortran binding (mpi_x_), which already turns Fortran
arguments into C ones (sentinels, statuses, LOGICALs, 1-based indices, blank-padded strings,
Fortran callbacks), so C, mpif.h, `use mpi` and `use mpi_f08` share one implementation. The entry
points only add what is new in Fortran 2008: assumed-type assumed-rank choice buffers (CFI
descriptors, non-contiguous sections included), CHARACTER(LEN=*) descriptors and the optional
IERROR."""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "mpi"))
import api_table  # noqa: E402

MPIF_H = ROOT / "mpi" / "include" / "mpif.h"

HANDLES = ["Comm", "Datatype", "Group", "Request", "Op", "Win", "File", "Info", "Errhandler", "Message"]

# --- The Fortran 2008 facts C does not state ---------------------------------------------------
# int arguments that are LOGICAL in Fortran.
LOGICAL_NAMES = {"flag", "periods", "reorder", "remain_dims", "high", "commute", "complete", "weighted"}
# void* arguments that are choice buffers (TYPE(*), DIMENSION(..)).
CHOICE_NAMES = {"buf", "buffer", "sendbuf", "recvbuf", "inbuf", "outbuf", "inoutbuf", "origin_addr",
                "result_addr", "compare_addr", "location", "base"}
# void* arguments that are INTEGER(KIND=MPI_ADDRESS_KIND) in Fortran.
ADDRESS_INT_NAMES = {"attribute_val", "extra_state"}
# void* arguments that are TYPE(C_PTR) (memory the library hands out).
C_PTR_NAMES = {"baseptr", "buffer_addr"}
# Functions whose choice buffers the library still uses after the call returns (nonblocking,
# persistent, split collective, one-sided origin buffers, attached memory): ASYNCHRONOUS, and a
# non-contiguous section is described by a datatype instead of a temporary copy.
ASYNC_PREFIXES = ("I", "File_i")
ASYNC_NAMES = {"Put", "Get", "Accumulate", "Get_accumulate", "Fetch_and_op", "Compare_and_swap", "Rput", "Rget",
               "Raccumulate", "Rget_accumulate", "Buffer_attach"}
# Buffers whose address is all that counts (the data is not accessed as count x datatype).
ADDRESS_ONLY = {"Get_address", "Free_mem", "Win_detach"}
# Buffers that become memory the library keeps (a window, the buffered-send buffer): one contiguous
# piece.
WHOLE_MEMORY = {"Win_create", "Win_attach", "Buffer_attach"}
# Functions MPI 3.1 does not provide in mpi_f08 (deprecated in MPI-2, removed in MPI-3).
DEPRECATED = {"Attr_get", "Attr_put", "Attr_delete", "Keyval_create", "Keyval_free", "Errhandler_create",
              "Errhandler_set", "Errhandler_get", "Type_extent", "Type_lb", "Type_ub", "Type_hvector",
              "Type_hindexed", "Type_struct", "Address"}
# Functions bound directly to their C definition (no Fortran binding in between).
DIRECT = {"Wtime": "double precision", "Wtick": "double precision"}
# Hand-written entry points (mpi/fortran/f08_support.cpp); the interface is still generated here.
HANDWRITTEN = {"Buffer_detach"}
# Argument names that are Fortran words best avoided.
RENAME = {"function": "errhandler_fn"}
# Callback types: the abstract interface each PROCEDURE() argument has.
CALLBACKS = {
    "MPI_User_function": "MPI_User_function",
    "MPI_Comm_errhandler_function": "MPI_Comm_errhandler_function",
    "MPI_Win_errhandler_function": "MPI_Win_errhandler_function",
    "MPI_File_errhandler_function": "MPI_File_errhandler_function",
    "MPI_Comm_copy_attr_function": "MPI_Comm_copy_attr_function",
    "MPI_Comm_delete_attr_function": "MPI_Comm_delete_attr_function",
    "MPI_Type_copy_attr_function": "MPI_Type_copy_attr_function",
    "MPI_Type_delete_attr_function": "MPI_Type_delete_attr_function",
    "MPI_Win_copy_attr_function": "MPI_Win_copy_attr_function",
    "MPI_Win_delete_attr_function": "MPI_Win_delete_attr_function",
    "MPI_Grequest_query_function": "MPI_Grequest_query_function",
    "MPI_Grequest_free_function": "MPI_Grequest_free_function",
    "MPI_Grequest_cancel_function": "MPI_Grequest_cancel_function",
}
# Handle outputs that are also inputs (the call frees, completes or commits them).
INOUT_FUNCTIONS = {"Wait", "Test", "Start", "Cancel", "Request_free", "Type_commit", "Mrecv", "Imrecv",
                   "File_close", "Comm_disconnect", "Grequest_complete"}

ABSTRACT_INTERFACES = """\
  abstract interface
    subroutine MPI_User_function(invec, inoutvec, len, datatype)
      import
      type(c_ptr), value :: invec, inoutvec
      integer :: len
      type(MPI_Datatype) :: datatype
    end subroutine
    subroutine MPI_Comm_errhandler_function(comm, error_code)
      import
      type(MPI_Comm) :: comm
      integer :: error_code
    end subroutine
    subroutine MPI_Win_errhandler_function(win, error_code)
      import
      type(MPI_Win) :: win
      integer :: error_code
    end subroutine
    subroutine MPI_File_errhandler_function(file, error_code)
      import
      type(MPI_File) :: file
      integer :: error_code
    end subroutine
{attr}
    subroutine MPI_Grequest_query_function(extra_state, status, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      type(MPI_Status) :: status
      integer :: ierror
    end subroutine
    subroutine MPI_Grequest_free_function(extra_state, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer :: ierror
    end subroutine
    subroutine MPI_Grequest_cancel_function(extra_state, complete, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      logical :: complete
      integer :: ierror
    end subroutine
  end interface
"""

ATTR_INTERFACES = """\
    subroutine MPI_{k}_copy_attr_function(old{o}, {o}_keyval, extra_state, attribute_val_in, &
                                          attribute_val_out, flag, ierror)
      import
      type(MPI_{t}) :: old{o}
      integer :: {o}_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine
    subroutine MPI_{k}_delete_attr_function({o}, {o}_keyval, attribute_val, extra_state, ierror)
      import
      type(MPI_{t}) :: {o}
      integer :: {o}_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine"""

# The predefined attribute callbacks: the Fortran bindings' own procedures, with f08 interfaces.
PREDEFINED_CALLBACKS = [("Comm", "copy", ["MPI_COMM_NULL_COPY_FN", "MPI_COMM_DUP_FN"]),
                        ("Comm", "delete", ["MPI_COMM_NULL_DELETE_FN"]),
                        ("Type", "copy", ["MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_DUP_FN"]),
                        ("Type", "delete", ["MPI_TYPE_NULL_DELETE_FN"]),
                        ("Win", "copy", ["MPI_WIN_NULL_COPY_FN", "MPI_WIN_DUP_FN"]),
                        ("Win", "delete", ["MPI_WIN_NULL_DELETE_FN"])]


class Arg:
    """One argument of a C prototype and what it is in Fortran 2008."""

    def __init__(self, ctype, name, dims):
        self.ctype = ctype  # e.g. "const int*", "MPI_Comm", "int[]"
        self.name = RENAME.get(name, name)
        self.dims = dims  # "" or "[]" or "[][3]"
        self.name_suffix = ""  # the Fortran array shape after the name, e.g. "(*)" or "(3,*)"
        self.kind = None  # choice, char, proc, value (by reference), dropped
        self.fdecl = None  # Fortran declaration text without the name
        self.mode = None  # for choice buffers: blocking, async, address, whole
        self.pair = None  # for choice buffers: (count index, datatype index) when it has its own
        self.companions = []  # names of the buffers that share this one's count and datatype


def parse_prototype(decl):
    m = re.match(r"(int|double|MPI_Aint) MPI_(\w+)\((.*)\);", " ".join(decl.split()), re.S)
    ret, name, params = m.group(1), m.group(2), m.group(3).strip()
    args = []
    if params and params != "void":
        for p in params.split(","):
            p = p.strip()
            if p == "...":
                continue
            pm = re.match(r"(.*?)(\w+)((?:\[[^\]]*\])*)$", p)
            ctype, pname, dims = " ".join(pm.group(1).split()), pm.group(2), pm.group(3)
            args.append(Arg(ctype.replace(" *", "*").replace("* ", "*"), pname, dims))
    return ret, name, args


def is_async(fname):
    return fname.startswith(ASYNC_PREFIXES) or fname in ASYNC_NAMES or fname.endswith(("_init", "_begin"))


def intent_for(fname, arg, is_const, pointer):
    if not pointer or is_const:
        return "in"
    if fname in INOUT_FUNCTIONS or fname.endswith("_free") or fname.endswith("_free_keyval"):
        return "inout"
    if arg.name in ("position", "status") and fname in ("Pack", "Unpack", "Status_set_cancelled",
                                                       "Status_set_elements", "Status_set_elements_x"):
        return "inout"
    if arg.name in ("requests", "message") and not fname.startswith(("Mprobe", "Improbe")):
        return "inout"
    return "out"


def classify(fname, args):
    """Fill in each argument's Fortran form; returns None or the reason the function cannot be
    mapped."""
    nonblocking = is_async(fname)
    for a in args:
        t = a.ctype
        is_const = t.startswith("const ")
        base = t[6:] if is_const else t
        pointer = base.endswith("*")
        core = base.rstrip("*")
        array = a.dims != ""
        if fname in ("Init", "Init_thread") and a.name in ("argc", "argv"):
            a.kind = "dropped"
            continue
        if core in CALLBACKS or core in ("MPI_Handler_function", "MPI_Copy_function", "MPI_Delete_function"):
            if core not in CALLBACKS:
                return f"callback type {core} has no Fortran 2008 interface"
            a.kind = "proc"
            a.fdecl = f"procedure({CALLBACKS[core]})"
            continue
        if core == "void" and pointer and not array:
            if a.name in CHOICE_NAMES:
                a.kind = "choice"
                attrs = ["type(*), dimension(..)"]
                if is_const:
                    attrs.append("intent(in)")
                if nonblocking or fname in WHOLE_MEMORY or fname in ADDRESS_ONLY or fname.endswith("_end"):
                    attrs.append("asynchronous")
                a.fdecl = ", ".join(attrs)
                if fname in ADDRESS_ONLY or fname.endswith("_end"):
                    a.mode = "address"
                elif fname in WHOLE_MEMORY:
                    a.mode = "whole"
                elif nonblocking:
                    a.mode = "async"
                else:
                    a.mode = "blocking" if not is_const else "blocking_in"
                continue
            if a.name in ADDRESS_INT_NAMES:
                a.kind = "value"
                out = a.name == "attribute_val" and ("get_attr" in fname.lower() or fname == "Attr_get")
                a.fdecl = f"integer(kind=MPI_ADDRESS_KIND), intent({'out' if out else 'in'})"
                continue
            if a.name in C_PTR_NAMES:
                a.kind = "value"
                a.fdecl = "type(c_ptr), intent(out)"
                continue
            return f"void* argument '{a.name}' is none of choice buffer, address integer or C pointer"
        if core == "char":
            if array or base.count("*") != 1:
                return f"argument '{a.name}' is an array of strings"
            a.kind = "char"
            a.fdecl = f"character(len=*), intent({'in' if is_const else 'out'})"
            continue
        if core in ("MPI_" + h for h in HANDLES):
            ftype = f"type({core})"
        elif core == "MPI_Status":
            ftype = "type(MPI_Status)"
        elif core == "int":
            ftype = "logical" if a.name in LOGICAL_NAMES else "integer"
        elif core == "MPI_Aint":
            ftype = "integer(kind=MPI_ADDRESS_KIND)"
        elif core == "MPI_Offset":
            ftype = "integer(kind=MPI_OFFSET_KIND)"
        elif core == "MPI_Count":
            ftype = "integer(kind=MPI_COUNT_KIND)"
        else:
            return f"argument '{a.name}' has C type {t}, which the rules do not map"
        a.kind = "value"
        intent = intent_for(fname, a, is_const, pointer or array)
        if array:
            inner = re.findall(r"\[(\d*)\]", a.dims)
            shape = ",".join([d for d in inner[1:]] + ["*"])
            a.fdecl = f"{ftype}, intent({intent})"
            a.name_suffix = f"({shape})"
        else:
            a.fdecl = f"{ftype}, intent({intent})"
    if any(a.kind == "choice" for a in args) and any(
            a.kind in ("char", "proc") or (a.fdecl or "").startswith("logical") for a in args):
        return "a choice buffer together with a LOGICAL, CHARACTER or procedure argument (BIND(C) cannot take both)"
    # Each choice buffer's own (count, datatype), when the next two arguments after it are those
    # and no other buffer shares them.
    claimed = {}
    for i, a in enumerate(args):
        if a.kind != "choice":
            continue
        for j in range(i + 1, len(args) - 1):
            c, d = args[j], args[j + 1]
            if c.kind == "value" and c.ctype == "int" and not c.dims and "count" in c.name and \
                    d.ctype == "MPI_Datatype" and not d.dims:
                claimed.setdefault(j, []).append(i)
                a.pair = (j, j + 1)
                break
    # Buffers that share theirs (a reduction's send and receive buffers): the first one describes
    # a section for all of them, which then must have the same layout (or be MPI_IN_PLACE).
    for j, owners in claimed.items():
        if len(owners) > 1:
            if args[owners[0]].mode == "async":
                args[owners[0]].companions = [args[i].name for i in owners[1:]]
            for i in owners[1:]:
                args[i].pair = None
                if args[i].mode == "async":
                    args[i].mode = "companion"
    return None


def fortran_bindings():
    """name (lower case, without mpi_) -> parameter list text (None when defined through a macro)."""
    out = {}
    for f in sorted(HERE.glob("f_*.cpp")):
        text = f.read_text()
        for m in re.finditer(r"^(?:void|double|int) mpi_(\w+)_\(", text, re.M):
            depth, i, params, piece = 1, m.end(), [], ""
            while depth:
                ch = text[i]
                depth += {"(": 1, ")": -1}.get(ch, 0)
                if depth == 1 and ch == ",":
                    params.append(" ".join(piece.split()))
                    piece = ""
                elif depth:
                    piece += ch
                i += 1
            params.append(" ".join(piece.split()))
            out[m.group(1)] = [p for p in params if p]
    for name in api_table.fortran_bindings():
        out.setdefault(name, None)
    return out


def functions():
    """(name, ret, args, suffix, reason) for every function of mpi.h, in mpi.h's order; reason is
    None when the module has the function."""
    text = api_table.MPI_H.read_text().split(api_table.BEGIN)[0]
    bindings = fortran_bindings()
    out = []
    for name, decl in api_table.prototypes(text):
        ret, _, args = parse_prototype(decl)
        reason = None
        if name in DEPRECATED:
            reason = "deprecated: MPI 3.1 has no mpi_f08 binding for it"
        elif re.search(r"(c2f|f2c|f082|2f08)", name):
            reason = "a C conversion function"
        elif name.startswith("T_"):
            reason = "the tool information interface has C bindings only (MPI-3.1 §14.3)"
        elif name in DIRECT:
            pass
        elif ret == "MPI_Aint":
            reason = "a function of addresses by value (MPI_Aint_add, MPI_Aint_diff): mpif.h and `use mpi` have it"
        elif name.lower() not in bindings:
            reason = "no Fortran binding mpi_" + name.lower() + "_ in mpi/fortran"
        else:
            reason = classify(name, args)
            if reason is None:
                fixed = bindings[name.lower()]
                if fixed is not None:
                    expected = sum(1 for a in args if a.kind != "dropped") + 1
                    have = len([p for p in fixed if "size_t" not in p])
                    if expected != have:
                        reason = (f"the Fortran binding has {have} arguments, the C prototype implies "
                                  f"{expected}")
        suffix = "_f08ts" if any(a.kind == "choice" for a in args) else "_f08"
        out.append((name, ret, args, suffix, reason))
    return out


# --- mpif.h: constants and sentinels -----------------------------------------------------------
def mpif_constants():
    """[(name, fortran type, value)] in mpif.h's order, and its COMMON-block sentinels."""
    lines = MPIF_H.read_text().splitlines()
    types, values, order, commons = {}, {}, [], []
    declared = {}
    for line in lines:
        s = line.strip()
        if not s or s.startswith("!"):
            continue
        m = re.match(r"PARAMETER \((MPI_\w+)=(.*)\)$", s)
        if m:
            values[m.group(1)] = m.group(2)
            continue
        m = re.match(r"COMMON /(\w+)/ (MPI_\w+)$", s)
        if m:
            commons.append((m.group(1), m.group(2), declared.get(m.group(2))))
            continue
        m = re.match(r"(INTEGER(?:\(KIND=\w+\))?|DOUBLE PRECISION|CHARACTER\(LEN=1\)) (MPI_\w+)(\([^)]*\))?$", s)
        if m:
            declared[m.group(2)] = (m.group(1), m.group(3) or "")
            if m.group(3) is None:
                types[m.group(2)] = m.group(1)
                order.append(m.group(2))
    return [(n, types[n], values[n]) for n in order if n in values], commons


def handle_types():
    """Constant name -> handle type, from the casts of mpi.h's #defines."""
    text = api_table.MPI_H.read_text()
    out = {}
    for m in re.finditer(r"^#define (MPI_\w+)\s+\(\((MPI_\w+)\)", text, re.M):
        if m.group(2)[4:] in HANDLES:
            out[m.group(1)] = m.group(2)
    for m in re.finditer(r"^#define (MPI_\w+)\s+(MPI_\w+)\s*$", text, re.M):
        if m.group(2) in out:
            out[m.group(1)] = out[m.group(2)]
    return out


def status_fields():
    text = api_table.MPI_H.read_text()
    body = re.search(r"typedef struct MPI_Status \{(.*?)\} MPI_Status;", text, re.S).group(1)
    return re.findall(r"^\s*int (\w+);", body, re.M)


# --- Output ------------------------------------------------------------------------------------
def wrap(head, names, tail, indent):
    """A Fortran statement with an argument list, continued with & before 100 columns; the
    binding label goes on a line of its own."""
    out, line = [], head + "("
    for i, n in enumerate(names):
        piece = n + (", " if i + 1 < len(names) else "")
        if len(line) + len(piece) > 96:
            out.append(line.rstrip() + " &")
            line = indent + "    " + piece
        else:
            line += piece
    line += ")"
    if tail:
        out.append(line + " &")
        line = indent + "   " + tail
    out.append(line)
    return "\n".join(out)


def uses_bind_c(args):
    """Procedures with choice buffers bind to C (the buffer arrives as a C descriptor); the others
    keep gfortran's own calling convention (every argument by reference, hidden CHARACTER
    lengths), which takes LOGICAL arguments and Fortran callbacks where standard BIND(C) cannot."""
    return any(a.kind == "choice" for a in args)


def fortran_interface(prefix, name, ret, args, suffix):
    proc = f"{prefix}_{name}{suffix}"
    names = [a.name for a in args if a.kind != "dropped"]
    ind = "    "
    if name in DIRECT:
        head = f"{ind}{DIRECT[name]} function {proc}"
        out = [wrap(head, [], f' bind(C, name="{prefix}_{name}")', ind)]
        out.append(f"{ind}end function")
        return proc, "\n".join(out)
    bind_c = uses_bind_c(args)
    names.append("ierror")
    tail = f' bind(C, name="{proc}")' if bind_c else ""
    out = [wrap(f"{ind}subroutine {proc}", names, tail, ind), f"{ind}  import"]
    for a in args:
        if a.kind == "dropped":
            continue
        decl = a.fdecl
        if bind_c and decl.startswith("integer,"):
            decl = "integer(c_int)," + decl[len("integer,"):]  # the same type as INTEGER, spelled interoperably
        out.append(f"{ind}  {decl} :: {a.name}{a.name_suffix}")
    out.append(f"{ind}  integer{'(c_int)' if bind_c else ''}, optional, intent(out) :: ierror")
    out.append(f"{ind}end subroutine")
    return proc, "\n".join(out)


def generate_module(funcs):
    consts, commons = mpif_constants()
    htypes = handle_types()
    fields = status_fields()
    o = []
    o.append("! Generated by mpi/fortran/mpi_f08_gen.py from mpi.h, mpif.h and the Fortran bindings: do not edit.")
    o.append("!")
    o.append("! The Fortran 2008 module (`use mpi_f08`): typed handles, TYPE(MPI_Status), optional IERROR,")
    o.append("! assumed-type assumed-rank choice buffers. It holds declarations only; every procedure is")
    o.append("! an entry point of libtilempi (mpi/fortran/f08_support.h).")
    o.append("module mpi_f08")
    o.append("  use, intrinsic :: iso_c_binding, only: c_ptr, c_int")
    o.append("  implicit none")
    o.append("  private :: c_int")
    o.append("")
    for h in HANDLES:
        o.append(f"  type, bind(C) :: MPI_{h}")
        o.append("    integer(c_int) :: MPI_VAL")
        o.append("  end type")
    o.append("  ! The same six integers as C's MPI_Status and mpif.h's INTEGER STATUS(MPI_STATUS_SIZE).")
    o.append("  type, bind(C) :: MPI_Status")
    for f in fields:
        o.append(f"    integer(c_int) :: {f}")
    o.append("  end type")
    o.append("")
    o.append("  ! What this module provides (MPI 3.1, section 17.1.1).")
    o.append("  logical, parameter :: MPI_SUBARRAYS_SUPPORTED = .true.")
    o.append("  logical, parameter :: MPI_ASYNC_PROTECTS_NONBLOCKING = .false.")
    o.append("")
    o.append("  ! The constants of mpif.h: handles as TYPE(...) parameters, the rest as there.")
    kinds_first = [c for c in consts if c[0] in ("MPI_ADDRESS_KIND", "MPI_OFFSET_KIND", "MPI_COUNT_KIND",
                                                  "MPI_INTEGER_KIND")]
    for n, t, v in kinds_first + [c for c in consts if c not in kinds_first]:
        if n in htypes:
            o.append(f"  type({htypes[n]}), parameter :: {n} = {htypes[n]}({v})")
        else:
            o.append(f"  {t.lower()}, parameter :: {n} = {v}")
    o.append("")
    o.append("  ! Sentinel variables: the library recognizes their COMMON blocks by address, the same")
    o.append("  ! blocks as mpif.h's.")
    for blk, var, decl in commons:
        dims = decl[1] if decl else ""
        if "STATUS" in var:
            o.append(f"  type(MPI_Status) :: {var}{'(1)' if 'STATUSES' in var else ''}")
        else:
            o.append(f"  {(decl[0] if decl else 'INTEGER').lower()} :: {var}{dims.replace('MPI_STATUS_SIZE,', '')}")
        o.append(f"  common /{blk.lower()}/ {var}")
    o.append("")
    attr = "\n".join(ATTR_INTERFACES.format(k=k, t=t, o=ob) for k, t, ob in
                     (("Comm", "Comm", "comm"), ("Type", "Datatype", "type"), ("Win", "Win", "win")))
    o.append(ABSTRACT_INTERFACES.format(attr=attr))
    for kind, what, names in PREDEFINED_CALLBACKS:
        for n in names:
            o.append(f"  procedure(MPI_{kind}_{what}_attr_function) :: {n}")
    o.append("")
    o.append("  ! == and /= on handles: elemental, so that whole arrays of requests compare.")
    for op, suffix in (("==", "eq"), ("/=", "ne")):
        o.append(f"  interface operator({op})")
        for h in HANDLES:
            o.append(f"    module procedure tilempi_f08_{h.lower()}_{suffix}")
        o.append("  end interface")
    o.append("")
    for prefix in ("MPI", "PMPI"):
        for name, ret, args, suffix, reason in funcs:
            if reason:
                continue
            proc, body = fortran_interface(prefix, name, ret, args, suffix)
            o.append(f"  interface {prefix}_{name}")
            o.append(body)
            o.append("  end interface")
        for name, body in extra_interfaces(prefix):
            o.append(f"  interface {prefix}_{name}")
            o.append(body)
            o.append("  end interface")
    o.append("")
    o.append("contains")
    o.append("")
    for h in HANDLES:
        for op, suffix in (("==", "eq"), ("/=", "ne")):
            fn = f"tilempi_f08_{h.lower()}_{suffix}"
            o.append(f"  elemental logical function {fn}(a, b)")
            o.append(f"    type(MPI_{h}), intent(in) :: a, b")
            o.append(f"    {fn} = a%MPI_VAL {op} b%MPI_VAL")
            o.append("  end function")
    o.append("end module mpi_f08")
    return "\n".join(o) + "\n"


def sizeof_interface():
    """MPI_Sizeof (MPI-3.1 §17.1.9): one specific per type and kind, any rank, each bound to the C
    function of mpi/fortran/f_sizeof.cpp that answers its storage size (as the mpi module's)."""
    specifics = [("integer", k, k) for k in (1, 2, 4, 8, 16)] + \
                [("real", 4, 4), ("real", 8, 8), ("real", 10, 16), ("real", 16, 16)] + \
                [("complex", 4, 8), ("complex", 8, 16), ("complex", 10, 32), ("complex", 16, 32)]
    bodies = []
    for typ, kind, size in specifics:
        bodies.append(f"""\
    subroutine tilempi_f08_sizeof_{typ}{kind}(x, size, ierror) bind(C, name="tilempi_sizeof_{size}")
      {typ}(kind={kind}), dimension(..), intent(in) :: x
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine""")
    # LOGICAL and CHARACTER are no C types: plain externals (as in the mpi module), which a program
    # compiled with -std=f2018 accepts where a BIND(C) interface would not be.
    for kind in (1, 2, 4, 8):
        bodies.append(f"""\
    subroutine tilempi_sizeof_logical{kind}(x, size, ierror)
      logical(kind={kind}), dimension(..), intent(in) :: x
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine""")
    bodies.append("""\
    subroutine tilempi_sizeof_character(x, size, ierror)
      character(len=*), dimension(..), intent(in) :: x
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine""")
    return "\n".join(bodies)


def extra_interfaces(prefix):
    """Procedures of mpi_f08 with no C counterpart in mpi.h's list (hand-written entry points)."""
    return ([("Sizeof", sizeof_interface())] if prefix == "MPI" else []) + [
        ("Status_f2f08", f"""\
    subroutine {prefix}_Status_f2f08_f08(f_status, f08_status, ierror) bind(C, name="{prefix}_Status_f2f08_f08")
      import
      integer, intent(in) :: f_status(MPI_STATUS_SIZE)
      type(MPI_Status), intent(out) :: f08_status
      integer, optional, intent(out) :: ierror
    end subroutine"""),
        ("Status_f082f", f"""\
    subroutine {prefix}_Status_f082f_f08(f08_status, f_status, ierror) bind(C, name="{prefix}_Status_f082f_f08")
      import
      type(MPI_Status), intent(in) :: f08_status
      integer, intent(out) :: f_status(MPI_STATUS_SIZE)
      integer, optional, intent(out) :: ierror
    end subroutine"""),
        ("F_sync_reg", f"""\
    subroutine {prefix}_F_sync_reg_f08ts(buf) bind(C, name="{prefix}_F_sync_reg_f08ts")
      type(*), dimension(..), asynchronous :: buf
    end subroutine"""),
    ]


def cxx_param(a, bind_c):
    if a.kind == "char" and not bind_c:
        return f"char* {a.name}"
    if a.kind == "choice" or a.kind == "char":
        return f"CFI_cdesc_t* {a.name}"
    if a.kind == "proc":
        return f"void (*{a.name})()"
    return f"void* {a.name}"


def generate_entries(funcs):
    o = ["// Generated by mpi/fortran/mpi_f08_gen.py from mpi.h and the Fortran bindings: do not edit.",
         "// The entry points of the mpi_f08 module: each calls the function's Fortran binding.",
         '#include "f08_support.h"', "", "using namespace tilempi::fortran::f08;", "", 'extern "C" {', ""]
    aliases = []
    for name, ret, args, suffix, reason in funcs:
        if reason or name in DIRECT or name in HANDWRITTEN:
            continue
        live = [a for a in args if a.kind != "dropped"]
        binding = f"mpi_{name.lower()}_"
        fixed_params = []
        for a in live:
            fixed_params.append("char*" if a.kind == "char" else ("void (*)()" if a.kind == "proc" else "void*"))
        fixed_params.append("MPI_Fint*")
        fixed_params += ["std::size_t"] * sum(1 for a in live if a.kind == "char")
        o.append(f"void {binding}({', '.join(fixed_params)});")
        bind_c = uses_bind_c(args)
        entry = f"PMPI_{name}{suffix}" if bind_c else f"pmpi_{name.lower()}{suffix.lower()}_"
        params = [cxx_param(a, bind_c) for a in live] + ["MPI_Fint* ierror"]
        if not bind_c:
            params += [f"std::size_t {a.name}_len" for a in live if a.kind == "char"]
        o.append(f"void {entry}({', '.join(params)}) {{")
        call = []
        for i, a in enumerate(live):
            if a.kind == "choice":
                cls = {"blocking": "BlockingChoice", "blocking_in": "BlockingChoice", "async": "AsyncChoice",
                       "address": "AddressChoice", "whole": "WholeChoice", "companion": "AddressChoice"}[a.mode]
                ctor = f"{a.name}, \"MPI_{name}\""
                if a.mode == "blocking":
                    ctor += ", true"
                elif a.mode == "blocking_in":
                    ctor += ", false"
                elif a.mode == "async":
                    if a.pair:
                        ctor += f", {args[a.pair[0]].name}, {args[a.pair[1]].name}"
                    else:
                        ctor += ", nullptr, nullptr"
                    blocks = re.search(r"gather|scatter|alltoall|neighbor", name, re.I) is not None
                    ctor += ", true" if blocks else ", false"
                    if getattr(a, "companions", None):
                        ctor += ", {" + ", ".join(a.companions) + "}"
                o.append(f"  {cls} {a.name}_c({ctor});")
        # A choice buffer with its own count and datatype may replace them (a section's datatype).
        replaced = {}
        for a in live:
            if a.kind == "choice" and a.mode == "async" and a.pair:
                replaced[args[a.pair[0]].name] = f"{a.name}_c.count({args[a.pair[0]].name})"
                replaced[args[a.pair[1]].name] = f"{a.name}_c.datatype({args[a.pair[1]].name})"
        choices = [a for a in live if a.kind == "choice"]
        for a in live:
            if a.kind == "choice":
                call.append(f"{a.name}_c.address()")
            elif a.kind == "char" and not bind_c:
                call.append(a.name)
            elif a.kind == "char":
                call.append(f"static_cast<char*>({a.name}->base_addr)")
            else:
                call.append(replaced.get(a.name, a.name))
        call.append("&err")
        call += [f"{a.name}{'->elem_len' if bind_c else '_len'}" for a in live if a.kind == "char"]
        o.append("  MPI_Fint err = MPI_SUCCESS;")
        if choices:
            cond = " && ".join(f"{a.name}_c.ok(&err)" for a in choices)
            o.append(f"  if ({cond}) {binding}({', '.join(call)});")
        else:
            o.append(f"  {binding}({', '.join(call)});")
        if choices:
            # Copies of sections go back before IERROR is set, as if the call had written them.
            for a in choices:
                o.append(f"  {a.name}_c.finish();")
        o.append("  set_ierror(ierror, err);")
        o.append("}")
        aliases.append((bind_c, name, suffix))
        o.append("")
    o.append('}  // extern "C"')
    o.append("")
    o.append("// The names a profiling tool may replace.")
    for bind_c, name, suffix in aliases:
        if bind_c:
            o.append(f"TILEMPI_F08_ALIAS({name}{suffix})")
        else:
            o.append(f"TILEMPI_F08_F_ALIAS({name.lower()}{suffix.lower()})")
    return "\n".join(o) + "\n"


def listing(funcs):
    have = [f for f in funcs if not f[4]]
    lack = [f for f in funcs if f[4]]
    out = [f"# mpi_f08: {len(have)} of the {len(funcs)} functions of mpi.h, plus MPI_Status_f2f08, "
           "MPI_Status_f082f and MPI_F_sync_reg; generated by mpi/fortran/mpi_f08_gen.py"]
    out += [f"MPI_{n}{s}" for n, _, _, s, _ in have]
    out.append("# Not in mpi_f08, and why:")
    out += [f"MPI_{n}: {r}" for n, _, _, _, r in lack]
    return "\n".join(out) + "\n"


def module_symbols(module_text):
    """(symbol, wanted kinds) of every procedure a generated module declares."""
    out = []
    for m in re.finditer(r'bind\(C, name="(\w+)"\)', module_text):
        out.append((m.group(1), "W" if m.group(1).startswith("MPI_") else "T"))
    for m in re.finditer(r"^\s*subroutine (P?MPI_\w+)\(([^)]*)\)\s*$", module_text, re.M):
        name = m.group(1).lower() + "_"
        out.append((name, "W" if name.startswith("mpi_") else "T"))
    for m in re.finditer(r"^\s*elemental logical function (\w+)\(", module_text, re.M):
        out.append((f"__mpi_f08_MOD_{m.group(1)}", "T"))
    return out


def check_symbols(module_path, libs):
    import subprocess
    text = pathlib.Path(module_path).read_text()
    # Abstract interfaces name no procedure.
    text = re.sub(r"^\s*abstract interface$.*?^\s*end interface$", "", text, flags=re.M | re.S)
    wanted = module_symbols(text)
    bad = 0
    for lib in libs:
        args = ["nm", "--defined-only"] + (["-D"] if lib.endswith(".so") else []) + [lib]
        kinds = {}
        for line in subprocess.run(args, check=True, capture_output=True, text=True).stdout.splitlines():
            parts = line.split()
            if len(parts) == 3:
                kinds.setdefault(parts[2], set()).add(parts[1])
        for sym, kind in wanted:
            if kind not in kinds.get(sym, set()):
                print(f"{lib}: {sym} is {sorted(kinds.get(sym, [])) or 'missing'}, want {kind}", file=sys.stderr)
                bad += 1
        print(f"{lib}: the {len(wanted)} procedures of {pathlib.Path(module_path).name} are defined")
    return 1 if bad or len(wanted) < 500 else 0


def main():
    if len(sys.argv) > 3 and sys.argv[1] == "--check-symbols":
        return check_symbols(sys.argv[2], sys.argv[3:])
    funcs = functions()
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        sys.stdout.write(listing(funcs))
        return 0
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = pathlib.Path(sys.argv[1])
    outdir.mkdir(parents=True, exist_ok=True)
    for fname, text in (("mpi_f08.f90", generate_module(funcs)), ("f08_entry.cpp", generate_entries(funcs)),
                        ("mpi_f08_functions.txt", listing(funcs))):
        path = outdir / fname
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
