/*===- commbench.c - MPI communication benchmarks for segtime comm ---------===*
 *
 * The low-level communication benchmarks of PARKBENCH-93 §3.3 and a LogGP
 * parameter measurement, run by `segtime comm calibrate` (tools/CommCalibrate.cpp),
 * which compiles this file with mpicc and starts it with mpirun:
 *
 *  - COMMS1 (PARKBENCH-93 §3.3.1): ping-pong between ranks 0 and 1; the time
 *    of one message is half the round trip.
 *  - COMMS2 (§3.3.1): exchange; ranks 0 and 1 send to each other at once
 *    (MPI_Sendrecv); the time of one exchange of n bytes each way.
 *  - COMMS3 (§3.3.2): all-to-all saturation; every rank sends n bytes to each
 *    of the p-1 others (MPI_Isend/MPI_Irecv, MPI_Waitall): p(p-1) messages per
 *    round; the time of one round, the maximum over ranks.
 *  - SYNCH1 (§3.3.4): the time of one MPI_Barrier over q = 1..p ranks (a
 *    communicator of the first q ranks), the maximum over its ranks.
 *  - LogGP (Hoefler, Lichei, Rehm 2007, "Low-overhead LogGP parameter
 *    assessment for modern interconnection networks"; Kielmann, Bal,
 *    Verstoep 2000): PRTT(n, d, s), the time for rank 0 to send n messages of
 *    s bytes with a busy delay d between sends, then receive one s-byte reply
 *    that rank 1 sends after receiving all n. Measured: PRTT(1, 0, s),
 *    PRTT(n, 0, s) and PRTT(n, d, s) with d = PRTT(1, 0, s).
 *
 * Every measurement is a sample of `iters` repetitions lasting about
 * --sample-ms (the count is found by doubling, identically on all ranks),
 * after one untimed warm-up sample; --reps samples per point, each started
 * after an MPI_Barrier, taken in interleaved rounds over all points of a
 * benchmark (round r measures sample r of every size). Times are seconds per
 * operation. A sample during
 * which a rank was preempted (an involuntary context switch, getrusage) is
 * measured again, up to --retries times per point; --check 0 keeps every
 * sample (oversubscribed runs, whose ranks yield the CPU on purpose).
 *
 * Output (rank 0, stdout): one JSON object per line,
 *   {"bench":"info","np":P,"mpi":"...","host":"..."}
 *   {"bench":"comms1","n":N,"iters":I,"disturbed":K,"retries":R,"times":[s,...]}
 *                                                            (also comms2)
 *   {"bench":"comms3","p":P,"n":N,"iters":I,...,"times":[...]}
 *   {"bench":"synch1","p":Q,"iters":I,...,"times":[...]}
 *   {"bench":"loggp","s":S,"n":K,"d":D,"iters":[..],...,"prtt1":[...],"prttn":[...],
 *    "prttd":[...]}
 *   {"bench":"done"}
 * Progress goes to stderr.
 *
 * USAGE:
 *   mpicc -O2 -o commbench tools/commbench/commbench.c
 *   mpirun -np 2 ./commbench --bench comms1,comms2,comms3,synch1,loggp \
 *          --sizes 1,2,4,4096,4160 --loggp-sizes 1,65536 --reps 11 --sample-ms 2 \
 *          --retries 110 --check 1
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <mpi.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXPTS 256

static int Rank, Size;
static char *Buf, *Buf2; /* send and receive buffers of the largest size */
static double SampleS = 0.002;
static int Reps = 11, StreamN = 16;

static void die(const char *Msg) {
  if (Rank == 0)
    fprintf(stderr, "commbench: error: %s\n", Msg);
  MPI_Abort(MPI_COMM_WORLD, 2);
  exit(2);
}

static int parseList(const char *S, long *Out) {
  int K = 0;
  while (*S && K < MAXPTS) {
    char *End;
    long V = strtol(S, &End, 10);
    if (End == S || V < 0)
      die("bad number in a size list");
    Out[K++] = V;
    S = *End == ',' ? End + 1 : End;
    if (*End && *End != ',')
      die("size lists are comma-separated integers");
  }
  return K;
}

/* A collective measurement: Fn(Iters, Arg) runs Iters repetitions and returns
 * the elapsed time (s) as every rank should see it (same value on all ranks). */
typedef double (*MeasureFn)(long Iters, void *Arg);

/* The repetition count for one sample of about SampleS, found by doubling;
 * the same on all ranks because Fn returns a common value. */
static long findIters(MeasureFn Fn, void *Arg, long Cap) {
  long It = 1;
  double T;
  for (;;) {
    /* The minimum of 3 trials: a trial slowed down by another process must
     * not make the samples too short. */
    T = Fn(It, Arg);
    for (int K = 0; K < 2; ++K) {
      double U = Fn(It, Arg);
      T = U < T ? U : T;
    }
    if (T >= SampleS / 8 || It >= Cap)
      break;
    It *= 4;
  }
  if (!(T > 0))
    return It;
  long Want = (long)(It * SampleS / T);
  return Want < 1 ? 1 : Want;
}

/* Involuntary context switches of the calling thread so far: the kernel
 * took the CPU away from it (another process ran there). */
static long preemptions(void) {
  struct rusage U;
  getrusage(RUSAGE_THREAD, &U);
  return U.ru_nivcsw;
}

/* One measured point: Fn(Iters, Arg), its samples and retry counts. */
struct Point {
  MeasureFn Fn;
  void *Arg;
  long It;
  int Disturbed, Retries;
  double *Times; /* Reps samples, s per repetition */
};

/* Measures K points, Reps samples each, interleaved: round r takes the r-th
 * sample of every point, so slow and fast phases of a virtual machine (they
 * last seconds) fall on all points alike instead of on a block of
 * consecutive sizes. Each point first gets its repetition count and one
 * warm-up sample. A sample during which any rank was preempted (noise only
 * slows a sample down) is measured again, up to MaxRetries times per point;
 * the samples kept although disturbed are counted in Disturbed, the ones
 * redone in Retries. With --check 0 (oversubscribed runs yield the CPU on
 * purpose) every sample is kept. */
static int Check = 1, MaxRetries = 0;
static void measure(struct Point *P, int K) {
  for (int I = 0; I < K; ++I) {
    P[I].It = findIters(P[I].Fn, P[I].Arg, 1L << 24);
    P[I].Fn(P[I].It, P[I].Arg); /* warm-up */
    P[I].Disturbed = P[I].Retries = 0;
    P[I].Times = malloc(sizeof(double) * Reps);
    if (!P[I].Times)
      die("out of memory");
  }
  for (int R = 0; R < Reps; ++R)
    for (int I = 0; I < K; ++I)
      for (;;) {
        long C0 = preemptions();
        double T = P[I].Fn(P[I].It, P[I].Arg) / P[I].It;
        long Mine = preemptions() - C0, All = 0;
        MPI_Allreduce(&Mine, &All, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        P[I].Times[R] = T;
        if (!Check || All == 0)
          break;
        if (P[I].Retries >= MaxRetries) {
          ++P[I].Disturbed;
          break;
        }
        ++P[I].Retries;
      }
}

static void freePoints(struct Point *P, int K) {
  for (int I = 0; I < K; ++I)
    free(P[I].Times);
}

static double maxOver(double T, MPI_Comm C) {
  double M;
  MPI_Allreduce(&T, &M, 1, MPI_DOUBLE, MPI_MAX, C);
  return M;
}

static double fromRank0(double T) {
  MPI_Bcast(&T, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return T;
}

static void printTimes(const char *Key, const double *T, int K) {
  printf("\"%s\":[", Key);
  for (int I = 0; I < K; ++I)
    printf("%s%.9g", I ? "," : "", T[I]);
  printf("]");
}

/* --- COMMS1: ping-pong, half round trip (rank 0's clock) ---
 * As PARKBENCH-93's COMMS1, the message received is the one sent back: one
 * buffer per rank, written by each receive (a program's data changes
 * between messages; sending a buffer that is never written measured 2x
 * faster for rendezvous-size messages on this machine). */
static double pingpong(long Iters, void *Arg) {
  int N = *(long *)Arg;
  MPI_Barrier(MPI_COMM_WORLD);
  double T0 = MPI_Wtime();
  for (long I = 0; I < Iters; ++I) {
    if (Rank == 0) {
      MPI_Send(Buf, N, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(Buf, N, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (Rank == 1) {
      MPI_Recv(Buf, N, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(Buf, N, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
  }
  return fromRank0((MPI_Wtime() - T0) / 2);
}

/* --- COMMS2: exchange, both send at once --- */
static double exchange(long Iters, void *Arg) {
  int N = *(long *)Arg;
  MPI_Barrier(MPI_COMM_WORLD);
  double T0 = MPI_Wtime();
  if (Rank < 2) {
    int Peer = 1 - Rank;
    for (long I = 0; I < Iters; ++I)
      MPI_Sendrecv(Buf, N, MPI_BYTE, Peer, 2, Buf2, N, MPI_BYTE, Peer, 2, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
  }
  return maxOver(Rank < 2 ? MPI_Wtime() - T0 : 0, MPI_COMM_WORLD);
}

/* --- COMMS3: every rank sends N bytes to each other rank --- */
static MPI_Request *Reqs;
static double alltoall(long Iters, void *Arg) {
  int N = *(long *)Arg;
  MPI_Barrier(MPI_COMM_WORLD);
  double T0 = MPI_Wtime();
  for (long I = 0; I < Iters; ++I) {
    int K = 0;
    for (int P = 0; P < Size; ++P)
      if (P != Rank)
        MPI_Irecv(Buf2 + (size_t)P * N, N, MPI_BYTE, P, 3, MPI_COMM_WORLD, &Reqs[K++]);
    for (int P = 0; P < Size; ++P)
      if (P != Rank)
        MPI_Isend(Buf, N, MPI_BYTE, P, 3, MPI_COMM_WORLD, &Reqs[K++]);
    MPI_Waitall(K, Reqs, MPI_STATUSES_IGNORE);
  }
  return maxOver(MPI_Wtime() - T0, MPI_COMM_WORLD);
}

/* --- SYNCH1: barrier over the first Q ranks --- */
static double barrier(long Iters, void *Arg) {
  MPI_Comm Sub = *(MPI_Comm *)Arg;
  MPI_Barrier(MPI_COMM_WORLD);
  double T0 = MPI_Wtime();
  if (Sub != MPI_COMM_NULL)
    for (long I = 0; I < Iters; ++I)
      MPI_Barrier(Sub);
  return maxOver(Sub != MPI_COMM_NULL ? MPI_Wtime() - T0 : 0, MPI_COMM_WORLD);
}

/* --- LogGP: PRTT(n, d, s) --- */
struct Prtt {
  long S, N;
  double D;
};
static double prtt(long Iters, void *Arg) {
  struct Prtt *P = Arg;
  int S = (int)P->S;
  MPI_Barrier(MPI_COMM_WORLD);
  double T0 = MPI_Wtime();
  for (long I = 0; I < Iters; ++I) {
    if (Rank == 0) {
      for (long K = 0; K < P->N; ++K) {
        if (K > 0 && P->D > 0) {
          double W = MPI_Wtime();
          while (MPI_Wtime() - W < P->D)
            ;
        }
        MPI_Send(Buf, S, MPI_BYTE, 1, 4, MPI_COMM_WORLD);
      }
      MPI_Recv(Buf2, S, MPI_BYTE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (Rank == 1) {
      for (long K = 0; K < P->N; ++K)
        MPI_Recv(Buf2, S, MPI_BYTE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(Buf, S, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
    }
  }
  return fromRank0(MPI_Wtime() - T0);
}

static double medianOf(double *V, int K) {
  double *C = malloc(sizeof(double) * K);
  memcpy(C, V, sizeof(double) * K);
  for (int I = 1; I < K; ++I)
    for (int J = I; J > 0 && C[J - 1] > C[J]; --J) {
      double X = C[J];
      C[J] = C[J - 1];
      C[J - 1] = X;
    }
  double M = K % 2 ? C[K / 2] : 0.5 * (C[K / 2 - 1] + C[K / 2]);
  free(C);
  return M;
}

static int has(const char *List, const char *Name) {
  size_t L = strlen(Name);
  for (const char *P = List; (P = strstr(P, Name)); P += L)
    if ((P == List || P[-1] == ',') && (P[L] == 0 || P[L] == ','))
      return 1;
  return 0;
}

/* Rank 0: the MPI library and host, one JSON line. */
static void printInfo(void) {
  char Ver[MPI_MAX_LIBRARY_VERSION_STRING], Host[MPI_MAX_PROCESSOR_NAME];
  int L;
  MPI_Get_library_version(Ver, &L);
  MPI_Get_processor_name(Host, &L);
  char *Nl = strchr(Ver, '\n');
  if (Nl)
    *Nl = 0;
  for (char *C = Ver; *C; ++C)
    if (*C == '"' || *C == '\\' || (unsigned char)*C < 32)
      *C = ' ';
  printf("{\"bench\":\"info\",\"np\":%d,\"mpi\":\"%s\",\"host\":\"%s\"}\n", Size, Ver, Host);
  fflush(stdout);
}

/* COMMS1, COMMS2, COMMS3 (PARKBENCH) of those named in Bench, at the NS sizes Sizes. */
static void runComms(const char *Bench, long *Sizes, int NS) {
  struct Point Pts[MAXPTS];
  static const char *Names[] = {"comms1", "comms2", "comms3"};
  static MeasureFn Fns[] = {pingpong, exchange, alltoall};
  for (int B = 0; B < 3; ++B) {
    if (!has(Bench, Names[B]))
      continue;
    if (Rank == 0)
      fprintf(stderr, "commbench: %s: %d sizes\n", Names[B], NS);
    for (int I = 0; I < NS; ++I)
      Pts[I] = (struct Point){Fns[B], &Sizes[I], 0, 0, 0, NULL};
    measure(Pts, NS);
    for (int I = 0; I < NS && Rank == 0; ++I) {
      printf("{\"bench\":\"%s\",", Names[B]);
      if (B == 2)
        printf("\"p\":%d,", Size);
      printf("\"n\":%ld,\"iters\":%ld,\"disturbed\":%d,\"retries\":%d,", Sizes[I], Pts[I].It,
             Pts[I].Disturbed, Pts[I].Retries);
      printTimes("times", Pts[I].Times, Reps);
      printf("}\n");
      fflush(stdout);
    }
    freePoints(Pts, NS);
  }
}

/* SYNCH1: a barrier of p = 1 .. Size processes. */
static void runSynch1(void) {
  struct Point Pts[MAXPTS];
  if (Rank == 0)
    fprintf(stderr, "commbench: synch1: p = 1..%d\n", Size);
  MPI_Comm *Subs = malloc(sizeof(MPI_Comm) * Size);
  int NQ = Size < MAXPTS ? Size : MAXPTS;
  for (int Q = 1; Q <= NQ; ++Q) {
    MPI_Comm_split(MPI_COMM_WORLD, Rank < Q ? 0 : MPI_UNDEFINED, Rank, &Subs[Q - 1]);
    Pts[Q - 1] = (struct Point){barrier, &Subs[Q - 1], 0, 0, 0, NULL};
  }
  measure(Pts, NQ);
  for (int Q = 1; Q <= NQ; ++Q) {
    if (Subs[Q - 1] != MPI_COMM_NULL)
      MPI_Comm_free(&Subs[Q - 1]);
    if (Rank == 0) {
      printf("{\"bench\":\"synch1\",\"p\":%d,\"iters\":%ld,\"disturbed\":%d,\"retries\":%d,",
             Q, Pts[Q - 1].It, Pts[Q - 1].Disturbed, Pts[Q - 1].Retries);
      printTimes("times", Pts[Q - 1].Times, Reps);
      printf("}\n");
      fflush(stdout);
    }
  }
  freePoints(Pts, NQ);
  free(Subs);
}

/* LogGP's parameters by PRTT(1,0,s), PRTT(n,0,s) and PRTT(n,d,s) (Kielmann
   et al.) at the NL message sizes LSizes. */
static void runLoggp(long *LSizes, int NL) {
  if (Rank == 0)
    fprintf(stderr, "commbench: loggp: PRTT at %d sizes\n", NL);
  /* PRTT(1,0,s) first: its median is the delay d of PRTT(n,d,s). */
  struct Prtt One[MAXPTS], Stream[MAXPTS], Delay[MAXPTS];
  struct Point P1[MAXPTS], PN[MAXPTS], PD[MAXPTS];
  for (int I = 0; I < NL; ++I) {
    One[I] = (struct Prtt){LSizes[I], 1, 0};
    P1[I] = (struct Point){prtt, &One[I], 0, 0, 0, NULL};
  }
  measure(P1, NL);
  for (int I = 0; I < NL; ++I) {
    /* the same on all ranks: rank 0's times were broadcast */
    double D = medianOf(P1[I].Times, Reps);
    Stream[I] = (struct Prtt){LSizes[I], StreamN, 0};
    Delay[I] = (struct Prtt){LSizes[I], StreamN, D};
    PN[I] = (struct Point){prtt, &Stream[I], 0, 0, 0, NULL};
    PD[I] = (struct Point){prtt, &Delay[I], 0, 0, 0, NULL};
  }
  measure(PN, NL);
  measure(PD, NL);
  for (int I = 0; I < NL && Rank == 0; ++I) {
    printf("{\"bench\":\"loggp\",\"s\":%ld,\"n\":%d,\"d\":%.9g,\"iters\":[%ld,%ld,%ld],"
           "\"disturbed\":%d,\"retries\":%d,",
           LSizes[I], StreamN, Delay[I].D, P1[I].It, PN[I].It, PD[I].It,
           P1[I].Disturbed + PN[I].Disturbed + PD[I].Disturbed,
           P1[I].Retries + PN[I].Retries + PD[I].Retries);
    printTimes("prtt1", P1[I].Times, Reps);
    printf(",");
    printTimes("prttn", PN[I].Times, Reps);
    printf(",");
    printTimes("prttd", PD[I].Times, Reps);
    printf("}\n");
    fflush(stdout);
  }
  freePoints(P1, NL);
  freePoints(PN, NL);
  freePoints(PD, NL);
}

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  const char *Bench = "comms1,comms2,comms3,synch1,loggp";
  long Sizes[MAXPTS], LSizes[MAXPTS];
  int NS = 0, NL = 0;
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    const char *V = I + 1 < Argc ? Argv[I + 1] : NULL;
    if (!V)
      die("every option needs a value");
    if (!strcmp(A, "--bench"))
      Bench = V;
    else if (!strcmp(A, "--sizes"))
      NS = parseList(V, Sizes);
    else if (!strcmp(A, "--loggp-sizes"))
      NL = parseList(V, LSizes);
    else if (!strcmp(A, "--reps"))
      Reps = atoi(V);
    else if (!strcmp(A, "--sample-ms"))
      SampleS = atof(V) / 1000;
    else if (!strcmp(A, "--stream"))
      StreamN = atoi(V);
    else if (!strcmp(A, "--retries"))
      MaxRetries = atoi(V);
    else if (!strcmp(A, "--check"))
      Check = atoi(V);
    else
      die("unknown option");
    ++I;
  }
  if (Size < 2)
    die("needs at least 2 MPI processes (mpirun -np 2)");
  if (Reps < 1 || Reps > 1000 || SampleS <= 0 || StreamN < 2 || MaxRetries < 0)
    die("--reps must be 1..1000, --sample-ms > 0, --stream >= 2, --retries >= 0");
  long Max = 1;
  for (int I = 0; I < NS; ++I)
    Max = Sizes[I] > Max ? Sizes[I] : Max;
  for (int I = 0; I < NL; ++I)
    Max = LSizes[I] > Max ? LSizes[I] : Max;
  if (Max > (1L << 30))
    die("sizes above 1 GiB are not supported");
  Buf = malloc(Max);
  Buf2 = malloc((size_t)Max * Size); /* COMMS3 receives from every rank */
  Reqs = malloc(sizeof(MPI_Request) * 2 * Size);
  if (!Buf || !Buf2 || !Reqs)
    die("out of memory for the message buffers");
  memset(Buf, 1, Max);
  memset(Buf2, 0, (size_t)Max * Size);

  if (Rank == 0)
    printInfo();

  runComms(Bench, Sizes, NS);
  if (has(Bench, "synch1"))
    runSynch1();
  if (has(Bench, "loggp"))
    runLoggp(LSizes, NL);
  if (Rank == 0) {
    printf("{\"bench\":\"done\"}\n");
    fflush(stdout);
  }
  free(Buf);
  free(Buf2);
  free(Reqs);
  MPI_Finalize();
  return 0;
}
