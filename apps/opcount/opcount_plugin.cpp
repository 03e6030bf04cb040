// A GCC plugin that counts a program's operations as it runs, for the simulator's counted core
// model (`--compute model` on a program built with the tilempi wrappers; docs/SIM.md).
//
// After GCC's optimizations, every basic block gets code that adds the block's operation counts
// to a two-word counter, tilempi_op_counts[2]: [0] integer operations (arithmetic, logic, loads,
// stores, branches, calls), [1] floating-point operations. A vector statement counts one
// operation per element, because a tile core has no vector unit. The counter is defined by
// libtilempi_opcount.a, which the wrappers link: one counter per program image, so each rank of
// the simulator (one image per rank) counts its own work.
//
// Why counting, not timing: a rank's CPU time between MPI calls depends on what else the host
// runs (cache contention), so a timed core model gives different virtual times on a busy and an
// idle host. Counted operations are the same on every host and every run.
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "stringpool.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "gimplify.h"
#include "builtins.h"
#include "internal-fn.h"
#include "diagnostic-core.h"
#include "alias.h"
#include "hash-set.h"
#include "ggc.h"
#include "gtype-desc.h"
#include "cgraph.h"

#include <algorithm>

int plugin_is_GPL_compatible;

namespace {

/// The number of scalar operations a value of this type stands for (a vector's elements).
unsigned lanes(tree type) {
  if (type && VECTOR_TYPE_P(type)) {
    poly_uint64 n = TYPE_VECTOR_SUBPARTS(type);
    return n.is_constant() ? static_cast<unsigned>(n.to_constant()) : 1;
  }
  return 1;
}

/// A tile core moves 4 bytes per load or store: a block of memory copied or set costs one
/// operation per 2 bytes (a load and a store per word).
constexpr unsigned kBytesPerOp = 2;

/// Operations to move a value of this type: 1 for a scalar, one per 2 bytes of a structure or
/// array copied as a whole.
unsigned long long words(tree type) {
  if (!type || !AGGREGATE_TYPE_P(type)) return 1;
  tree size = TYPE_SIZE_UNIT(type);
  if (!size || !tree_fits_uhwi_p(size)) return 1;
  return std::max<unsigned long long>(1, tree_to_uhwi(size) / kBytesPerOp);
}

/// The size argument of a call to memcpy, memmove or memset, or NULL_TREE.
tree block_size(const gcall* call) {
  tree fn = gimple_call_fndecl(call);
  if (!fn || !fndecl_built_in_p(fn, BUILT_IN_NORMAL)) return NULL_TREE;
  switch (DECL_FUNCTION_CODE(fn)) {
    case BUILT_IN_MEMCPY:
    case BUILT_IN_MEMMOVE:
    case BUILT_IN_MEMSET:
      return gimple_call_num_args(call) == 3 ? gimple_call_arg(call, 2) : NULL_TREE;
    default:
      return NULL_TREE;
  }
}

bool is_float(tree type) {
  if (!type) return false;
  if (VECTOR_TYPE_P(type) || TREE_CODE(type) == COMPLEX_TYPE) type = TREE_TYPE(type);
  return SCALAR_FLOAT_TYPE_P(type);
}

/// A call to a math function the compiler knows (sqrt, exp, sin, ...): the library's code is not
/// counted, so the call stands for this many floating-point operations.
constexpr unsigned kMathCallOps = 20;

/// Floating-point operations per element that a call stands for, 0 if it is not a math call.
unsigned math_call_ops(const gcall* call) {
  if (gimple_call_internal_p(call)) {
    switch (gimple_call_internal_fn(call)) {
      case IFN_FMA:
      case IFN_FMS:
      case IFN_FNMA:
      case IFN_FNMS:
        return 2;  // a fused multiply-add is a multiply and an add on a core without one
      case IFN_FMIN:
      case IFN_FMAX:
      case IFN_COPYSIGN:
      case IFN_XORSIGN:
        return 1;
      default:
        break;
    }
    tree lhs = gimple_call_lhs(call);
    return lhs && is_float(TREE_TYPE(lhs)) ? kMathCallOps : 0;
  }
  tree fn = gimple_call_fndecl(call);
  if (!fn || !fndecl_built_in_p(fn, BUILT_IN_NORMAL)) return 0;
  return is_float(TREE_TYPE(TREE_TYPE(fn))) ? kMathCallOps : 0;
}

struct Counts {
  unsigned long long ops = 0, fp = 0;
};

void count_stmt(gimple* g, Counts& c) {
  switch (gimple_code(g)) {
    case GIMPLE_ASSIGN: {
      tree lhs = gimple_assign_lhs(g);
      tree type = TREE_TYPE(lhs);
      const enum tree_code code = gimple_assign_rhs_code(g);
      const unsigned n = lanes(type);
      // A copy between registers is free (the register allocator removes most of them); one to
      // or from memory is a load or a store.
      if (gimple_assign_single_p(g) && TREE_CODE(lhs) == SSA_NAME && TREE_CODE(gimple_assign_rhs1(g)) == SSA_NAME)
        return;
      if (gimple_assign_single_p(g) || code == NOP_EXPR || code == CONVERT_EXPR) {
        // A load, a store, a constant or a conversion between integer types.
        if (code == NOP_EXPR || code == CONVERT_EXPR) {
          tree from = TREE_TYPE(gimple_assign_rhs1(g));
          if (is_float(type) || is_float(from)) {
            c.fp += n;
            return;
          }
          // Between integer types of one width (signed, unsigned, pointer) nothing happens.
          if (TYPE_PRECISION(type) == TYPE_PRECISION(from)) return;
        }
        c.ops += n * words(type);
        return;
      }
      // Arithmetic: floating point if either side is (a comparison of doubles gives a bool).
      bool fp = is_float(type);
      for (unsigned i = 1; i < gimple_num_ops(g) && !fp; ++i) {
        tree op = gimple_op(g, i);
        if (op && is_float(TREE_TYPE(op))) {
          fp = true;
          if (VECTOR_TYPE_P(TREE_TYPE(op))) {
            const unsigned m = lanes(TREE_TYPE(op));
            if (m > 1) c.fp += m - n;
          }
        }
      }
      (fp ? c.fp : c.ops) += n;
      return;
    }
    case GIMPLE_COND: {
      tree a = gimple_cond_lhs(g);
      (is_float(TREE_TYPE(a)) ? c.fp : c.ops) += 1;
      return;
    }
    case GIMPLE_CALL: {
      const gcall* call = as_a<const gcall*>(g);
      tree lhs = gimple_call_lhs(call);
      if (tree size = block_size(call)) {
        // A constant size is counted here; another one where the call is (dynamic_ops).
        c.ops += 1 + (tree_fits_uhwi_p(size) ? tree_to_uhwi(size) / kBytesPerOp : 0);
        return;
      }
      if (const unsigned m = math_call_ops(call)) c.fp += m * lanes(lhs ? TREE_TYPE(lhs) : NULL_TREE);
      else c.ops += 1 + gimple_call_num_args(call);  // the call and its arguments
      return;
    }
    case GIMPLE_SWITCH:
    case GIMPLE_RETURN:
    case GIMPLE_GOTO:
      c.ops += 1;
      return;
    default:
      return;  // labels, debug statements, PHI nodes (register moves), nops
  }
}

tree g_counter = NULL_TREE;

tree g_counter_type = NULL_TREE;

/// The counter's element type: unsigned long long in a class of its own for alias analysis, so
/// that no store of the program (through a long*, say) may change it as far as GCC knows, and
/// loop-invariant motion keeps a loop's count in a register, stored once after the loop.
tree counter_type() {
  if (!g_counter_type) {
    g_counter_type = build_distinct_type_copy(long_long_unsigned_type_node);
    TYPE_ALIAS_SET(g_counter_type) = new_alias_set();
  }
  return g_counter_type;
}

/// extern unsigned long long tilempi_op_counts[2];
tree counter_decl() {
  if (g_counter) return g_counter;
  tree type = build_array_type_nelts(counter_type(), 2);
  tree decl = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier("tilempi_op_counts"), type);
  TREE_PUBLIC(decl) = 1;
  DECL_EXTERNAL(decl) = 1;
  TREE_STATIC(decl) = 0;
  DECL_ARTIFICIAL(decl) = 1;
  TREE_USED(decl) = 1;
  TREE_ADDRESSABLE(decl) = 1;
  // A global the optimizers see referenced needs its symbol-table node (alias and unused-local
  // analysis look it up).
  varpool_node::get_create(decl);
  g_counter = decl;
  return decl;
}

/// counter[i] += n, before the statement the iterator points at.
void add_increment(gimple_stmt_iterator* gsi, unsigned i, unsigned long long n) {
  tree ull = counter_type();
  tree ref = build4(ARRAY_REF, ull, counter_decl(), build_int_cst(integer_type_node, i), NULL_TREE, NULL_TREE);
  tree old = make_ssa_name(ull);
  gimple* load = gimple_build_assign(old, unshare_expr(ref));
  tree sum = make_ssa_name(ull);
  gimple* add = gimple_build_assign(sum, PLUS_EXPR, old, build_int_cst(ull, n));
  gimple* store = gimple_build_assign(unshare_expr(ref), sum);
  gsi_insert_before(gsi, load, GSI_SAME_STMT);
  gsi_insert_before(gsi, add, GSI_SAME_STMT);
  gsi_insert_before(gsi, store, GSI_SAME_STMT);
}

/// counter[0] += size / kBytesPerOp before a memcpy, memmove or memset whose size is not constant.
void add_dynamic_block_ops(gimple_stmt_iterator* gsi, tree size) {
  tree ull = counter_type();
  tree wide = make_ssa_name(ull);
  gsi_insert_before(gsi, gimple_build_assign(wide, NOP_EXPR, size), GSI_SAME_STMT);
  tree ops = make_ssa_name(ull);
  gsi_insert_before(gsi, gimple_build_assign(ops, TRUNC_DIV_EXPR, wide, build_int_cst(ull, kBytesPerOp)),
                    GSI_SAME_STMT);
  tree ref = build4(ARRAY_REF, ull, counter_decl(), integer_zero_node, NULL_TREE, NULL_TREE);
  tree old = make_ssa_name(ull);
  gsi_insert_before(gsi, gimple_build_assign(old, unshare_expr(ref)), GSI_SAME_STMT);
  tree sum = make_ssa_name(ull);
  gsi_insert_before(gsi, gimple_build_assign(sum, PLUS_EXPR, old, ops), GSI_SAME_STMT);
  gsi_insert_before(gsi, gimple_build_assign(unshare_expr(ref), sum), GSI_SAME_STMT);
}

/// Adds c's counts before the statement the iterator points at; whether it added any.
bool add_counts(gimple_stmt_iterator* at, const Counts& c) {
  if (c.ops) add_increment(at, 0, c.ops);
  if (c.fp) add_increment(at, 1, c.fp);
  return c.ops || c.fp;
}

const pass_data kPassData = {
    GIMPLE_PASS, "tilempi_opcount", OPTGROUP_NONE, TV_NONE, PROP_ssa | PROP_cfg, 0, 0, 0, TODO_update_ssa_only_virtuals,
};

/// Functions counted already (by their DECL_UID).
hash_set<int_hash<int, -1, -2>>* g_done = nullptr;

/// Where a function is counted. With optimization, just before the first loop-invariant motion
/// pass: the code is then simplified (inlined, redundancies and dead code removed) but not yet
/// vectorized or unrolled, so a loop counts its operations per scalar iteration, as a tile core
/// without a vector unit runs it; and the motion pass that follows keeps the loop's count in a
/// register. A function that did not pass there (-O0, -Og) is counted after GCC's last GIMPLE
/// pass instead.
class OpCountPass : public gimple_opt_pass {
 public:
  explicit OpCountPass(gcc::context* ctx) : gimple_opt_pass(kPassData, ctx) {}
  opt_pass* clone() override { return new OpCountPass(m_ctxt); }
  unsigned int execute(function* fun) override {
    if (!g_done) g_done = new hash_set<int_hash<int, -1, -2>>;
    if (g_done->add(DECL_UID(fun->decl))) return 0;
    basic_block bb;
    bool changed = false;
    FOR_EACH_BB_FN(bb, fun) {
      // A block's operations are added in segments that end at each call: a segment's count goes
      // in where the segment starts, so that when a call is entered (an MPI call charges the
      // counted work on entry) the counter holds exactly the work done before it, and the work
      // after it in the same block is added once it has returned.
      Counts c;
      gimple_stmt_iterator seg = gsi_after_labels(bb);
      for (gimple_stmt_iterator gsi = gsi_after_labels(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple* g = gsi_stmt(gsi);
        count_stmt(g, c);
        gcall* call = dyn_cast<gcall*>(g);
        if (!call) continue;
        if (tree size = block_size(call); size && !tree_fits_uhwi_p(size)) {
          add_dynamic_block_ops(&gsi, size);
          changed = true;
        }
        if (gimple_call_internal_p(call)) continue;
        changed |= add_counts(&seg, c);
        c = Counts{};
        seg = gsi;
        gsi_next(&seg);
      }
      if (!gsi_end_p(seg)) changed |= add_counts(&seg, c);
    }
    if (changed) mark_virtual_operands_for_renaming(fun);
    return 0;
  }
};

}  // namespace

int plugin_init(struct plugin_name_args* info, struct plugin_gcc_version* version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    error("tilempi opcount plugin: built for GCC %s, loaded by GCC %s", gcc_version.basever, version->basever);
    return 1;
  }
  // The counts are added after GCC's interprocedural analyses, which would otherwise find a
  // function that only reads memory pure (or record in its mod/ref summary that it writes no
  // global), and let a caller in the same unit keep the counter in a register across a call to
  // it: the callee's counts would be lost. So those two analyses are off in counted builds.
  global_options.x_flag_ipa_pure_const = 0;
  global_options.x_flag_ipa_modref = 0;
  // The counter's type and declaration live across passes: roots for GCC's garbage collector.
  static const ggc_root_tab roots[] = {
      {&g_counter, 1, sizeof g_counter, &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
      {&g_counter_type, 1, sizeof g_counter_type, &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
      LAST_GGC_ROOT_TAB,
  };
  register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, nullptr, const_cast<ggc_root_tab*>(roots));
  struct register_pass_info early;
  early.pass = new OpCountPass(g);
  // "laddress" runs once, right before the loop-invariant motion pass of the optimizing
  // pipeline (GCC 12's passes.def).
  early.reference_pass_name = "laddress";
  early.ref_pass_instance_number = 1;
  early.pos_op = PASS_POS_INSERT_AFTER;
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &early);
  struct register_pass_info late;
  late.pass = new OpCountPass(g);
  late.reference_pass_name = "optimized";
  late.ref_pass_instance_number = 1;
  late.pos_op = PASS_POS_INSERT_AFTER;
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &late);
  return 0;
}
