! Point-to-point, statuses, communicators and error handlers from
! fixed-form Fortran 77 through mpif.h. Runs on any number of ranks.
      PROGRAM P2P
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, NERR, TOTAL
      COMMON /ERRS/ NERR
      NERR = 0
      CALL MPI_INIT(IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'mpi_init')
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
! A barrier between the parts keeps one part's wildcard receives
! from matching the next part's messages.
      CALL TENV(RANK)
      CALL TRING(RANK, NP)
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL TANYSRC(RANK, NP)
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL TNONBLK(RANK, NP)
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL TPROBE(RANK, NP)
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL TCOMMS(RANK, NP)
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL TERRORS(RANK, NP)
      CALL MPI_ALLREDUCE(NERR, TOTAL, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) THEN
         IF (TOTAL .EQ. 0) THEN
            PRINT '(A,I0,A)', 'p2p.f: PASS on ', NP, ' ranks'
         ELSE
            PRINT '(A,I0,A)', 'p2p.f: FAIL, ', TOTAL, ' errors'
         END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      IF (TOTAL .NE. 0) STOP 1
      END

! Count a failed check and say which one.
      SUBROUTINE CHECK(OK, WHAT)
      IMPLICIT NONE
      LOGICAL OK
      CHARACTER*(*) WHAT
      INTEGER NERR
      COMMON /ERRS/ NERR
      IF (.NOT. OK) THEN
         NERR = NERR + 1
         PRINT '(2A)', 'check failed: ', WHAT
      END IF
      END

! Environment queries: initialized, version, names, timers.
      SUBROUTINE TENV(RANK)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, IERR, V, SV, RL, UB
      INTEGER(KIND=MPI_ADDRESS_KIND) AVAL
      LOGICAL FLAG
      CHARACTER*(MPI_MAX_PROCESSOR_NAME) NAME
      CHARACTER*3 SHORT
      DOUBLE PRECISION T0, T1
      CALL MPI_INITIALIZED(FLAG, IERR)
      CALL CHECK(FLAG .AND. IERR .EQ. MPI_SUCCESS, 'initialized')
      CALL MPI_FINALIZED(FLAG, IERR)
      CALL CHECK(.NOT. FLAG, 'finalized before finalize')
      CALL MPI_GET_VERSION(V, SV, IERR)
      CALL CHECK(V .EQ. MPI_VERSION .AND. SV .EQ. MPI_SUBVERSION,
     &     'get_version')
      NAME = 'x'
      CALL MPI_GET_PROCESSOR_NAME(NAME, RL, IERR)
      CALL CHECK(RL .GT. 0 .AND. RL .EQ. LEN_TRIM(NAME),
     &     'processor name blank-padded')
      SHORT = 'abc'
      CALL MPI_GET_PROCESSOR_NAME(SHORT, RL, IERR)
      CALL CHECK(RL .LE. 3, 'processor name truncated to LEN')
      T0 = MPI_WTIME()
      T1 = MPI_WTIME()
      CALL CHECK(T1 .GE. T0, 'wtime monotonic')
      CALL CHECK(MPI_WTICK() .GT. 0.0D0, 'wtick positive')
! Attributes: the value itself, not a pointer to it.
      AVAL = -1
      CALL MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, AVAL, FLAG,
     &     IERR)
      CALL CHECK(FLAG .AND. AVAL .GE. 32767, 'comm_get_attr tag_ub')
      UB = -1
      CALL MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, UB, FLAG, IERR)
      CALL CHECK(FLAG .AND. UB .EQ. AVAL, 'attr_get tag_ub')
      IF (RANK .LT. 0) PRINT *, NAME
      END

! A ring: each rank sends its rank to the right, receives from the
! left; the status names the source and tag, MPI_GET_COUNT the size.
      SUBROUTINE TRING(RANK, NP)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, NP, IERR, RIGHT, LEFT, I, N
      INTEGER STATUS(MPI_STATUS_SIZE)
      INTEGER SBUF(10), RBUF(20)
      DOUBLE PRECISION DS(3), DR(3)
      RIGHT = MOD(RANK + 1, NP)
      LEFT = MOD(RANK + NP - 1, NP)
      DO I = 1, 10
         SBUF(I) = 100 * RANK + I
      END DO
      DO I = 1, 20
         RBUF(I) = -1
      END DO
      STATUS(MPI_SOURCE) = -99
      CALL MPI_SENDRECV(SBUF, 10, MPI_INTEGER, RIGHT, 7 + RANK,
     &     RBUF, 20, MPI_INTEGER, LEFT, MPI_ANY_TAG, MPI_COMM_WORLD,
     &     STATUS, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'sendrecv')
      CALL CHECK(STATUS(MPI_SOURCE) .EQ. LEFT, 'status source')
      CALL CHECK(STATUS(MPI_TAG) .EQ. 7 + LEFT, 'status tag')
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, N, IERR)
      CALL CHECK(N .EQ. 10, 'get_count integers')
      CALL MPI_GET_COUNT(STATUS, MPI_BYTE, N, IERR)
      CALL CHECK(N .EQ. 40, 'get_count bytes')
      CALL MPI_GET_ELEMENTS(STATUS, MPI_INTEGER, N, IERR)
      CALL CHECK(N .EQ. 10, 'get_elements')
      DO I = 1, 10
         CALL CHECK(RBUF(I) .EQ. 100 * LEFT + I, 'ring data')
      END DO
      CALL CHECK(RBUF(11) .EQ. -1, 'ring wrote past count')
! Double precision, MPI_STATUS_IGNORE, blocking send and recv; even
! ranks send first so that the ring cannot deadlock.
      DO I = 1, 3
         DS(I) = RANK + I / 4.0D0
      END DO
      IF (NP .GT. 1) THEN
         IF (MOD(RANK, 2) .EQ. 0) THEN
            CALL MPI_SEND(DS, 3, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &           MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(DR, 3, MPI_DOUBLE_PRECISION, LEFT, 1,
     &           MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
         ELSE
            CALL MPI_RECV(DR, 3, MPI_DOUBLE_PRECISION, LEFT, 1,
     &           MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
            CALL MPI_SEND(DS, 3, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &           MPI_COMM_WORLD, IERR)
         END IF
         CALL CHECK(IERR .EQ. MPI_SUCCESS, 'recv status_ignore')
         DO I = 1, 3
            CALL CHECK(DR(I) .EQ. LEFT + I / 4.0D0, 'double data')
         END DO
      END IF
! MPI_PROC_NULL: completes at once with source PROC_NULL, count 0.
      CALL MPI_RECV(RBUF, 20, MPI_INTEGER, MPI_PROC_NULL, 5,
     &     MPI_COMM_WORLD, STATUS, IERR)
      CALL CHECK(STATUS(MPI_SOURCE) .EQ. MPI_PROC_NULL,
     &     'proc_null source')
      CALL CHECK(STATUS(MPI_TAG) .EQ. MPI_ANY_TAG, 'proc_null tag')
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, N, IERR)
      CALL CHECK(N .EQ. 0, 'proc_null count')
      END

! Rank 0 receives one message from every other rank with
! MPI_ANY_SOURCE and learns the sender from the status only.
      SUBROUTINE TANYSRC(RANK, NP)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, NP, IERR, I, N, VAL(4), SEEN(64)
      INTEGER STATUS(MPI_STATUS_SIZE)
      IF (RANK .EQ. 0) THEN
         DO I = 1, NP
            SEEN(I) = 0
         END DO
         DO I = 1, NP - 1
            CALL MPI_RECV(VAL, 4, MPI_INTEGER, MPI_ANY_SOURCE,
     &           MPI_ANY_TAG, MPI_COMM_WORLD, STATUS, IERR)
            CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, N, IERR)
            CALL CHECK(N .EQ. MIN(STATUS(MPI_SOURCE), 4),
     &           'any_source count')
            CALL CHECK(STATUS(MPI_TAG) .EQ. 1000 + STATUS(MPI_SOURCE),
     &           'any_source tag')
            CALL CHECK(VAL(1) .EQ. STATUS(MPI_SOURCE),
     &           'any_source data')
            SEEN(STATUS(MPI_SOURCE) + 1) = SEEN(STATUS(MPI_SOURCE) + 1)
     &           + 1
         END DO
         DO I = 2, NP
            CALL CHECK(SEEN(I) .EQ. 1, 'every sender once')
         END DO
      ELSE
         N = MIN(RANK, 4)
         DO I = 1, 4
            VAL(I) = RANK
         END DO
         CALL MPI_SSEND(VAL, N, MPI_INTEGER, 0, 1000 + RANK,
     &        MPI_COMM_WORLD, IERR)
      END IF
      END

! Nonblocking exchange with every rank, waitall with a status array,
! then waitany / testall / waitsome on a second round.
      SUBROUTINE TNONBLK(RANK, NP)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER MAXP
      PARAMETER (MAXP=64)
      INTEGER RANK, NP, IERR, I, IDX, NDONE, OUTC
      INTEGER REQS(2*MAXP), STATS(MPI_STATUS_SIZE, 2*MAXP)
      INTEGER SB(MAXP), RB(MAXP), IND(2*MAXP)
      INTEGER STATUS(MPI_STATUS_SIZE)
      LOGICAL FLAG
      DO I = 1, NP
         SB(I) = RANK * 1000 + I - 1
         RB(I) = -1
      END DO
      DO I = 1, NP
         CALL MPI_IRECV(RB(I), 1, MPI_INTEGER, I - 1, 3,
     &        MPI_COMM_WORLD, REQS(I), IERR)
      END DO
      DO I = 1, NP
         CALL MPI_ISEND(SB(I), 1, MPI_INTEGER, I - 1, 3,
     &        MPI_COMM_WORLD, REQS(NP + I), IERR)
      END DO
      CALL MPI_WAITALL(2 * NP, REQS, STATS, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'waitall')
      DO I = 1, NP
         CALL CHECK(RB(I) .EQ. (I - 1) * 1000 + RANK, 'waitall data')
         CALL CHECK(STATS(MPI_SOURCE, I) .EQ. I - 1,
     &        'waitall status source')
         CALL CHECK(STATS(MPI_TAG, I) .EQ. 3, 'waitall status tag')
         CALL CHECK(REQS(I) .EQ. MPI_REQUEST_NULL, 'request freed')
      END DO
! Waitany: indexes are 1-based in Fortran.
      DO I = 1, NP
         CALL MPI_IRECV(RB(I), 1, MPI_INTEGER, I - 1, 4,
     &        MPI_COMM_WORLD, REQS(I), IERR)
      END DO
      DO I = 1, NP
         CALL MPI_ISEND(SB(I), 1, MPI_INTEGER, I - 1, 4,
     &        MPI_COMM_WORLD, REQS(NP + I), IERR)
      END DO
      NDONE = 0
      DO I = 1, NP
         CALL MPI_WAITANY(NP, REQS, IDX, STATUS, IERR)
         CALL CHECK(IDX .GE. 1 .AND. IDX .LE. NP, 'waitany index')
         IF (IDX .GE. 1 .AND. IDX .LE. NP) THEN
            CALL CHECK(STATUS(MPI_SOURCE) .EQ. IDX - 1,
     &           'waitany source matches index')
            CALL CHECK(RB(IDX) .EQ. (IDX - 1) * 1000 + RANK,
     &           'waitany data')
            NDONE = NDONE + 1
         END IF
      END DO
      CALL CHECK(NDONE .EQ. NP, 'waitany count')
      CALL MPI_WAITANY(NP, REQS, IDX, STATUS, IERR)
      CALL CHECK(IDX .EQ. MPI_UNDEFINED, 'waitany all null')
      FLAG = .FALSE.
      DO WHILE (.NOT. FLAG)
         CALL MPI_TESTALL(NP, REQS(NP + 1), FLAG, MPI_STATUSES_IGNORE,
     &        IERR)
      END DO
! Waitsome on a third round.
      DO I = 1, NP
         CALL MPI_IRECV(RB(I), 1, MPI_INTEGER, I - 1, 5,
     &        MPI_COMM_WORLD, REQS(I), IERR)
         IND(I) = 0
      END DO
      DO I = 1, NP
         CALL MPI_SEND(SB(I), 1, MPI_INTEGER, I - 1, 5,
     &        MPI_COMM_WORLD, IERR)
      END DO
      NDONE = 0
      DO WHILE (NDONE .LT. NP)
         CALL MPI_WAITSOME(NP, REQS, OUTC, IND, STATS, IERR)
         CALL CHECK(OUTC .GE. 1 .AND. OUTC .NE. MPI_UNDEFINED,
     &        'waitsome outcount')
         IF (OUTC .LT. 1) RETURN
         DO I = 1, OUTC
            CALL CHECK(IND(I) .GE. 1 .AND. IND(I) .LE. NP,
     &           'waitsome index')
            CALL CHECK(STATS(MPI_SOURCE, I) .EQ. IND(I) - 1,
     &           'waitsome status')
         END DO
         NDONE = NDONE + OUTC
      END DO
      DO I = 1, NP
         CALL CHECK(RB(I) .EQ. (I - 1) * 1000 + RANK, 'waitsome data')
      END DO
      END

! Probe and iprobe see size and source before the receive.
      SUBROUTINE TPROBE(RANK, NP)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, NP, IERR, N, RIGHT, LEFT, REQ
      INTEGER STATUS(MPI_STATUS_SIZE), BUF(8), RB(8)
      LOGICAL FLAG
      RIGHT = MOD(RANK + 1, NP)
      LEFT = MOD(RANK + NP - 1, NP)
      BUF = RANK
      CALL MPI_ISEND(BUF, 5, MPI_INTEGER, RIGHT, 9, MPI_COMM_WORLD,
     &     REQ, IERR)
      CALL MPI_PROBE(LEFT, 9, MPI_COMM_WORLD, STATUS, IERR)
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, N, IERR)
      CALL CHECK(N .EQ. 5 .AND. STATUS(MPI_SOURCE) .EQ. LEFT, 'probe')
      CALL MPI_IPROBE(LEFT, 9, MPI_COMM_WORLD, FLAG, STATUS, IERR)
      CALL CHECK(FLAG, 'iprobe finds a probed message')
      CALL MPI_RECV(RB, N, MPI_INTEGER, LEFT, 9, MPI_COMM_WORLD,
     &     STATUS, IERR)
      CALL CHECK(RB(5) .EQ. LEFT, 'probe data')
      CALL MPI_WAIT(REQ, MPI_STATUS_IGNORE, IERR)
      CALL CHECK(REQ .EQ. MPI_REQUEST_NULL, 'wait frees request')
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_IPROBE(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, FLAG,
     &     STATUS, IERR)
      CALL CHECK(.NOT. FLAG, 'iprobe finds nothing')
      END

! comm_dup keeps traffic apart; comm_split by parity orders by key.
      SUBROUTINE TCOMMS(RANK, NP)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, NP, IERR, DUP, HALF, HR, HN, RES, V, W, REQ, G
      INTEGER STATUS(MPI_STATUS_SIZE), SUM, SV(2), REQS(2)
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, DUP, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'comm_dup')
      CALL MPI_COMM_COMPARE(DUP, MPI_COMM_WORLD, RES, IERR)
      CALL CHECK(RES .EQ. MPI_CONGRUENT, 'dup is congruent')
! A message on DUP is not received by a receive on WORLD. (Sends to
! self are nonblocking: a blocking one may wait for its receive.)
      CALL MPI_IRECV(V, 1, MPI_INTEGER, RANK, 0, MPI_COMM_WORLD, REQ,
     &     IERR)
      SV(1) = RANK + 1
      SV(2) = RANK + 2
      CALL MPI_ISEND(SV(1), 1, MPI_INTEGER, RANK, 0, DUP, REQS(1),
     &     IERR)
      CALL MPI_ISEND(SV(2), 1, MPI_INTEGER, RANK, 0, MPI_COMM_WORLD,
     &     REQS(2), IERR)
      CALL MPI_WAIT(REQ, STATUS, IERR)
      CALL CHECK(V .EQ. RANK + 2, 'dup context separation')
      CALL MPI_RECV(W, 1, MPI_INTEGER, RANK, 0, DUP, STATUS, IERR)
      CALL CHECK(W .EQ. RANK + 1, 'dup message')
      CALL MPI_WAITALL(2, REQS, MPI_STATUSES_IGNORE, IERR)
! Split into even and odd ranks, reversed order by key.
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, MOD(RANK, 2), NP - RANK,
     &     HALF, IERR)
      CALL MPI_COMM_RANK(HALF, HR, IERR)
      CALL MPI_COMM_SIZE(HALF, HN, IERR)
      IF (MOD(RANK, 2) .EQ. 0) THEN
         CALL CHECK(HN .EQ. (NP + 1) / 2, 'split size even')
      ELSE
         CALL CHECK(HN .EQ. NP / 2, 'split size odd')
      END IF
      CALL CHECK(HR .EQ. HN - 1 - RANK / 2, 'split rank by key')
      CALL MPI_ALLREDUCE(RANK, SUM, 1, MPI_INTEGER, MPI_SUM, HALF,
     &     IERR)
      IF (MOD(RANK, 2) .EQ. 0) THEN
         CALL CHECK(SUM .EQ. 2 * (HN * (HN - 1) / 2), 'split sum even')
      ELSE
         CALL CHECK(SUM .EQ. HN * HN, 'split sum odd')
      END IF
      CALL MPI_COMM_GROUP(HALF, G, IERR)
      CALL MPI_GROUP_SIZE(G, V, IERR)
      CALL CHECK(V .EQ. HN, 'group size')
      CALL MPI_GROUP_FREE(G, IERR)
      CALL CHECK(G .EQ. MPI_GROUP_NULL, 'group_free')
      CALL MPI_COMM_FREE(HALF, IERR)
      CALL CHECK(HALF .EQ. MPI_COMM_NULL, 'comm_free split')
! MPI_UNDEFINED color gives MPI_COMM_NULL.
      IF (RANK .EQ. 0) THEN
         CALL MPI_COMM_SPLIT(DUP, MPI_UNDEFINED, 0, HALF, IERR)
         CALL CHECK(HALF .EQ. MPI_COMM_NULL, 'split undefined')
      ELSE
         CALL MPI_COMM_SPLIT(DUP, 1, RANK, HALF, IERR)
         CALL MPI_COMM_SIZE(HALF, HN, IERR)
         CALL CHECK(HN .EQ. NP - 1, 'split without rank 0')
         CALL MPI_COMM_FREE(HALF, IERR)
      END IF
      CALL MPI_COMM_FREE(DUP, IERR)
      CALL CHECK(DUP .EQ. MPI_COMM_NULL, 'comm_free dup')
      END

! Under MPI_ERRORS_RETURN a bad argument comes back in IERROR.
      SUBROUTINE TERRORS(RANK, NP)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, NP, IERR, IE, ECLASS, RL, EH, BUF(1)
      CHARACTER*(MPI_MAX_ERROR_STRING) MSG
      CALL MPI_COMM_GET_ERRHANDLER(MPI_COMM_WORLD, EH, IERR)
      CALL CHECK(EH .EQ. MPI_ERRORS_ARE_FATAL, 'default handler')
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'set errhandler')
      BUF(1) = RANK
      CALL MPI_SEND(BUF, 1, MPI_INTEGER, NP, 0, MPI_COMM_WORLD, IE)
      CALL CHECK(IE .EQ. MPI_ERR_RANK, 'bad rank returns ERR_RANK')
      CALL MPI_ERROR_CLASS(IE, ECLASS, IERR)
      CALL CHECK(ECLASS .EQ. MPI_ERR_RANK, 'error_class')
      MSG = ' '
      CALL MPI_ERROR_STRING(IE, MSG, RL, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS .AND. RL .GT. 0 .AND.
     &     RL .EQ. LEN_TRIM(MSG), 'error_string')
      CALL MPI_SEND(BUF, -1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, IE)
      CALL CHECK(IE .EQ. MPI_ERR_COUNT, 'negative count')
      CALL MPI_SEND(BUF, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD,
     &     IE)
      CALL CHECK(IE .EQ. MPI_ERR_TYPE, 'null datatype')
      CALL MPI_SEND(BUF, 1, MPI_INTEGER, 0, -5, MPI_COMM_WORLD, IE)
      CALL CHECK(IE .EQ. MPI_ERR_TAG, 'negative tag')
      CALL MPI_COMM_SIZE(MPI_COMM_NULL, RL, IE)
      CALL CHECK(IE .EQ. MPI_ERR_COMM, 'null communicator')
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD,
     &     MPI_ERRORS_ARE_FATAL, IERR)
      END
