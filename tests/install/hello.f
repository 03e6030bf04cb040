! A minimal MPI program in fixed-form Fortran 77 with mpif.h, built
! with the installed tilempif77.
      PROGRAM HELLO
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      WRITE (*, '(A, I0, A, I0)') 'hello from ', RANK, ' of ', NP
      CALL MPI_FINALIZE(IERR)
      END
