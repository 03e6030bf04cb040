// A pending operation's holds (holds.h); each kind of object counts its own (comm.cpp,
// datatype.cpp, coll/op.cpp).
#include "holds.h"

#include "comm.h"
#include "datatype.h"

namespace tilempi::mpi {

Holds::Holds(MPI_Comm comm, const std::vector<MPI_Datatype>& types, MPI_Op op) : comm_(comm_hold(comm)) {
  for (MPI_Datatype h : types) {
    const Datatype* t = datatype_get(h);
    if (!t || t->predefined) continue;
    datatype_hold(t);
    types_.push_back(t);
  }
  if (op_hold(op)) op_ = op;
}

Holds::Holds(const Holds& o) : comm_(o.comm_), types_(o.types_), op_(o.op_) {
  if (comm_) ++comm_->holds.count;
  for (const Datatype* t : types_) datatype_hold(t);
  if (op_ != MPI_OP_NULL) op_hold(op_);
}

Holds::~Holds() {
  if (op_ != MPI_OP_NULL) op_unhold(op_);
  for (const Datatype* t : types_) datatype_unhold(t);
  comm_unhold(comm_);
}

}  // namespace tilempi::mpi
