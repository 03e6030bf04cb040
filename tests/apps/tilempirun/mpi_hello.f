C The smallest MPI program in Fortran, compiled by the tests with tilempif77 / tilempif90.
      program hello
      implicit none
      include 'mpif.h'
      integer ierr, rank, nranks
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
      print '(A,I0,A,I0)', 'hello from rank ', rank, ' of ', nranks
      call MPI_FINALIZE(ierr)
      end
