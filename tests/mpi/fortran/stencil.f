! A 2D Jacobi stencil on a PX x PY process grid: halo exchange with
! IRECV / ISEND / WAITALL (columns through MPI_TYPE_VECTOR, rows as
! contiguous runs, MPI_PROC_NULL at the edges), checked point by
! point against the same iteration done serially on every rank.
      PROGRAM STENCIL
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NX, NY, NITER, MAXL
      PARAMETER (NX=37, NY=29, NITER=30, MAXL=NX+NY)
      DOUBLE PRECISION U(0:MAXL+1, 0:MAXL+1), V(0:MAXL+1, 0:MAXL+1)
      DOUBLE PRECISION S(0:NX+1, 0:NY+1), T(0:NX+1, 0:NY+1)
      DOUBLE PRECISION BVAL, ERR, MAXERR, LSUM, GSUM, SSUM
      INTEGER IERR, RANK, NP, PX, PY, CX, CY, I, J, IT, NBAD
      INTEGER X0, X1, Y0, Y1, LNX, LNY, COLTYPE, TSIZE
      INTEGER LEFT, RIGHT, DOWN, UP, REQS(8)
      INTEGER STATS(MPI_STATUS_SIZE, 8)
      INTEGER ROWCOMM, RROW, NROW

      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NBAD = 0

! The most square grid: PX the largest divisor of NP up to its root.
      PX = 1
      DO I = 1, NP
         IF (I * I .LE. NP .AND. MOD(NP, I) .EQ. 0) PX = I
      END DO
      PY = NP / PX
      CX = MOD(RANK, PX)
      CY = RANK / PX
! Blocks of nearly equal size; global interior indexes 1..NX, 1..NY.
      X0 = CX * NX / PX + 1
      X1 = (CX + 1) * NX / PX
      Y0 = CY * NY / PY + 1
      Y1 = (CY + 1) * NY / PY
      LNX = X1 - X0 + 1
      LNY = Y1 - Y0 + 1
      LEFT = MPI_PROC_NULL
      RIGHT = MPI_PROC_NULL
      DOWN = MPI_PROC_NULL
      UP = MPI_PROC_NULL
      IF (CX .GT. 0) LEFT = RANK - 1
      IF (CX .LT. PX - 1) RIGHT = RANK + 1
      IF (CY .GT. 0) DOWN = RANK - PX
      IF (CY .LT. PY - 1) UP = RANK + PX

! A column of the local block: LNY values, MAXL+2 apart.
      CALL MPI_TYPE_VECTOR(LNY, 1, MAXL + 2, MPI_DOUBLE_PRECISION,
     &     COLTYPE, IERR)
      CALL MPI_TYPE_COMMIT(COLTYPE, IERR)
      CALL MPI_TYPE_SIZE(COLTYPE, TSIZE, IERR)
      IF (TSIZE .NE. 8 * LNY) THEN
         PRINT *, 'type_size of the column type: ', TSIZE
         NBAD = NBAD + 1
      END IF

! Initial field: boundary values on the global edge, zero inside.
      DO J = 0, LNY + 1
         DO I = 0, LNX + 1
            U(I, J) = BVAL(X0 - 1 + I, Y0 - 1 + J, NX, NY)
            V(I, J) = U(I, J)
         END DO
      END DO
      DO J = 0, NY + 1
         DO I = 0, NX + 1
            S(I, J) = BVAL(I, J, NX, NY)
            T(I, J) = S(I, J)
         END DO
      END DO

      DO IT = 1, NITER
         CALL MPI_IRECV(U(0, 1), 1, COLTYPE, LEFT, 1,
     &        MPI_COMM_WORLD, REQS(1), IERR)
         CALL MPI_IRECV(U(LNX + 1, 1), 1, COLTYPE, RIGHT, 2,
     &        MPI_COMM_WORLD, REQS(2), IERR)
         CALL MPI_IRECV(U(1, 0), LNX, MPI_DOUBLE_PRECISION, DOWN, 3,
     &        MPI_COMM_WORLD, REQS(3), IERR)
         CALL MPI_IRECV(U(1, LNY + 1), LNX, MPI_DOUBLE_PRECISION, UP,
     &        4, MPI_COMM_WORLD, REQS(4), IERR)
         CALL MPI_ISEND(U(LNX, 1), 1, COLTYPE, RIGHT, 1,
     &        MPI_COMM_WORLD, REQS(5), IERR)
         CALL MPI_ISEND(U(1, 1), 1, COLTYPE, LEFT, 2,
     &        MPI_COMM_WORLD, REQS(6), IERR)
         CALL MPI_ISEND(U(1, LNY), LNX, MPI_DOUBLE_PRECISION, UP, 3,
     &        MPI_COMM_WORLD, REQS(7), IERR)
         CALL MPI_ISEND(U(1, 1), LNX, MPI_DOUBLE_PRECISION, DOWN, 4,
     &        MPI_COMM_WORLD, REQS(8), IERR)
         IF (MOD(IT, 2) .EQ. 0) THEN
            CALL MPI_WAITALL(8, REQS, MPI_STATUSES_IGNORE, IERR)
         ELSE
            CALL MPI_WAITALL(8, REQS, STATS, IERR)
            IF (LEFT .NE. MPI_PROC_NULL .AND.
     &          STATS(MPI_SOURCE, 1) .NE. LEFT) NBAD = NBAD + 1
            IF (UP .NE. MPI_PROC_NULL .AND.
     &          STATS(MPI_TAG, 4) .NE. 4) NBAD = NBAD + 1
         END IF
         IF (IERR .NE. MPI_SUCCESS) NBAD = NBAD + 1
         DO J = 1, LNY
            DO I = 1, LNX
               V(I, J) = 0.25D0 * (U(I - 1, J) + U(I + 1, J)
     &              + U(I, J - 1) + U(I, J + 1))
            END DO
         END DO
         DO J = 1, LNY
            DO I = 1, LNX
               U(I, J) = V(I, J)
            END DO
         END DO
! The same step on the whole grid.
         DO J = 1, NY
            DO I = 1, NX
               T(I, J) = 0.25D0 * (S(I - 1, J) + S(I + 1, J)
     &              + S(I, J - 1) + S(I, J + 1))
            END DO
         END DO
         DO J = 1, NY
            DO I = 1, NX
               S(I, J) = T(I, J)
            END DO
         END DO
      END DO

      MAXERR = 0.0D0
      LSUM = 0.0D0
      DO J = 1, LNY
         DO I = 1, LNX
            ERR = ABS(U(I, J) - S(X0 - 1 + I, Y0 - 1 + J))
            MAXERR = MAX(MAXERR, ERR)
            LSUM = LSUM + U(I, J)
         END DO
      END DO
      IF (MAXERR .GT. 1.0D-12) THEN
         PRINT *, 'rank', RANK, ': max difference from serial', MAXERR
         NBAD = NBAD + 1
      END IF
      SSUM = 0.0D0
      DO J = 1, NY
         DO I = 1, NX
            SSUM = SSUM + S(I, J)
         END DO
      END DO
      CALL MPI_ALLREDUCE(LSUM, GSUM, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IF (ABS(GSUM - SSUM) .GT. 1.0D-9 * ABS(SSUM)) THEN
         PRINT *, 'global sum', GSUM, ' serial', SSUM
         NBAD = NBAD + 1
      END IF
! A row of the process grid sums its blocks' sizes to NX.
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, CY, CX, ROWCOMM, IERR)
      CALL MPI_COMM_RANK(ROWCOMM, RROW, IERR)
      CALL MPI_ALLREDUCE(LNX, NROW, 1, MPI_INTEGER, MPI_SUM, ROWCOMM,
     &     IERR)
      IF (RROW .NE. CX .OR. NROW .NE. NX) NBAD = NBAD + 1
      CALL MPI_COMM_FREE(ROWCOMM, IERR)
      CALL MPI_TYPE_FREE(COLTYPE, IERR)
      IF (COLTYPE .NE. MPI_DATATYPE_NULL) NBAD = NBAD + 1

      CALL MPI_ALLREDUCE(MPI_IN_PLACE, NBAD, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) THEN
         IF (NBAD .EQ. 0) THEN
            PRINT '(A,I0,A,I0,A,I0,A)', 'stencil.f: PASS on ', NP,
     &           ' ranks (', PX, ' x ', PY, ')'
         ELSE
            PRINT '(A,I0,A)', 'stencil.f: FAIL, ', NBAD, ' errors'
         END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      IF (NBAD .NE. 0) STOP 1
      END

! Fixed values on the global boundary (a harmonic function, so the
! iteration converges to it); zero in the interior.
      DOUBLE PRECISION FUNCTION BVAL(I, J, NX, NY)
      IMPLICIT NONE
      INTEGER I, J, NX, NY
      IF (I .EQ. 0 .OR. J .EQ. 0 .OR. I .EQ. NX + 1 .OR.
     &    J .EQ. NY + 1) THEN
         BVAL = DBLE(I * I - J * J) / 100.0D0 + 1.0D0
      ELSE
         BVAL = 0.0D0
      END IF
      END
