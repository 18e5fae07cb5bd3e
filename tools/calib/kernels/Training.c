/*===- Training.c - benchmark program: training kernels of the group-multiplier fit -===*/

/* ---- Training kernels of the group-multiplier fit (tools/calib/TrainingSource.cpp).
 * Not the validation kernels; working sets in L1/L2. ---- */
#define TN 2048
#define TM 64
#define TQ 32
#define TV 16
/* External linkage: stores to an internal global that is never read would be deleted. */
double ta[TN], tb[TN], tc[TN], td[TN], tval[TN];
float tf[TN], tg[TN];
int ti[TN], tj[TN], tk[TN], tsorted[TN], tcol[TN];
unsigned tu[TN];
unsigned char ts[TN];
double tA[TM][TM], tB[TM][TM], tC[TM][TM];
double mx[TQ][TQ], my[TQ][TQ], mz[TQ][TQ], tL[TQ][TQ], tS[TQ][TQ];
int tI[TM][TM];
double tV3[TV][TV][TV], tW3[TV][TV][TV];
double thc[8];

__attribute__((constructor)) static void train_init(void) {
  unsigned x = 2463534242u; /* xorshift32 */
  for (int i = 0; i < TN; i++) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    ta[i] = 0.5 + 0.05 * (i % 7);
    tb[i] = 1.0 + 0.01 * (i % 13);
    tc[i] = 0.3 + 0.02 * (i % 5);
    tf[i] = 0.25f + 0.01f * (float)(i % 11);
    tg[i] = 0.5f;
    ti[i] = (int)(x % 100000u) - 50000;
    tj[i] = 1 + (int)((x >> 8) % 97u);
    tu[i] = x;
    ts[i] = (unsigned char)((x >> 24) % 4u == 0 ? ' ' : 'a' + (x >> 16) % 26u);
    tsorted[i] = 3 * i;
    tcol[i] = (int)((x >> 4) % (unsigned)TN);
    tval[i] = 0.001 * (i % 17);
  }
  for (int i = 0; i < TM; i++)
    for (int j = 0; j < TM; j++) {
      tA[i][j] = 1.0 + 0.01 * (i + j);
      tB[i][j] = 0.5 + 0.001 * (i * j % 31);
      tI[i][j] = (i * 31 + j * 17) % 1000;
    }
  for (int i = 0; i < TQ; i++)
    for (int j = 0; j < TQ; j++) {
      mx[i][j] = 0.01 * ((i + 2 * j) % 9);
      my[i][j] = 0.02 * ((3 * i + j) % 7);
      tS[i][j] = (i == j ? TQ : 0.0) + 0.1 / (1 + (i > j ? i - j : j - i));
    }
  for (int i = 0; i < TV; i++)
    for (int j = 0; j < TV; j++)
      for (int k = 0; k < TV; k++)
        tV3[i][j][k] = 1.0 + 0.001 * (i * 7 + j * 3 + k);
  for (int k = 0; k < 8; k++)
    thc[k] = 1.0 / (k + 2);
}

/* train_sum_f64: sum of 2048 doubles (one add chain) */
void train_sum_f64(long R) {
  for (long r = 0; r < R; r++) {
    double s = 0;
    for (long i = 0; i < TN; i++)
      s += ta[i];
    BF(s);
    CLOBBER();
  }
}

/* train_sumsq_f32: sum of squares of 2048 floats */
void train_sumsq_f32(long R) {
  for (long r = 0; r < R; r++) {
    float s = 0;
    for (long i = 0; i < TN; i++)
      s += tf[i] * tf[i];
    BF(s);
    CLOBBER();
  }
}

/* train_maxabs_f64: max |a[i] - 0.6| over 2048 doubles */
void train_maxabs_f64(long R) {
  for (long r = 0; r < R; r++) {
    double m = 0;
    for (long i = 0; i < TN; i++) {
      double v = fabs(ta[i] - 0.6);
      m = v > m ? v : m;
    }
    BF(m);
    CLOBBER();
  }
}

/* train_sum_i32: sum of 2048 ints */
void train_sum_i32(long R) {
  for (long r = 0; r < R; r++) {
    long s = 0;
    for (long i = 0; i < TN; i++)
      s += ti[i];
    B(s);
    CLOBBER();
  }
}

/* train_rcopy_f64: reversed copy of 2048 doubles */
void train_rcopy_f64(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TN; i++)
      td[i] = ta[TN - 1 - i];
    CLOBBER();
  }
}

/* train_scale_f32: g = 1.5 f over 2048 floats */
void train_scale_f32(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TN; i++)
      tg[i] = 1.5f * tf[i];
    CLOBBER();
  }
}

/* train_triad_f64: d = b + q c over 2048 doubles */
void train_triad_f64(long R) {
  double q = 0.5;
  BF(q);
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TN; i++)
      td[i] = tb[i] + q * tc[i];
    CLOBBER();
  }
}

/* train_saxpy_f32: g += a f over 2048 floats */
void train_saxpy_f32(long R) {
  float a = 1e-7f;
  BF(a);
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TN; i++)
      tg[i] += a * tf[i];
    CLOBBER();
  }
}

/* train_transpose: B = A^T, 64 x 64 doubles */
void train_transpose(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TM; i++)
      for (long j = 0; j < TM; j++)
        tB[j][i] = tA[i][j];
    CLOBBER();
  }
}

/* train_stencil5: 2-D 5-point Laplacian, 64 x 64 doubles */
void train_stencil5(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 1; i < TM - 1; i++)
      for (long j = 1; j < TM - 1; j++)
        tC[i][j] = tA[i - 1][j] + tA[i + 1][j] + tA[i][j - 1] + tA[i][j + 1] - 4.0 * tA[i][j];
    CLOBBER();
  }
}

/* train_mm_kij: matrix product, k-i-j loop order, 32 x 32 doubles */
void train_mm_kij(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TQ; i++)
      for (long j = 0; j < TQ; j++)
        mz[i][j] = 0;
    for (long k = 0; k < TQ; k++)
      for (long i = 0; i < TQ; i++) {
        double a = mx[i][k];
        for (long j = 0; j < TQ; j++)
          mz[i][j] += a * my[k][j];
      }
    CLOBBER();
  }
}

/* train_gauss_seidel: one in-place Gauss-Seidel sweep, 64 x 64 doubles */
void train_gauss_seidel(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 1; i < TM - 1; i++)
      for (long j = 1; j < TM - 1; j++)
        tA[i][j] = 0.25 * (tA[i - 1][j] + tA[i + 1][j] + tA[i][j - 1] + tA[i][j + 1]);
    CLOBBER();
  }
}

/* train_cholesky: copy and Cholesky-factor a 32 x 32 SPD matrix (sqrt, divisions) */
void train_cholesky(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TQ; i++)
      for (long j = 0; j < TQ; j++)
        tL[i][j] = tS[i][j];
    for (long j = 0; j < TQ; j++) {
      double d = tL[j][j];
      for (long k = 0; k < j; k++)
        d -= tL[j][k] * tL[j][k];
      d = sqrt(d);
      tL[j][j] = d;
      for (long i = j + 1; i < TQ; i++) {
        double s = tL[i][j];
        for (long k = 0; k < j; k++)
          s -= tL[i][k] * tL[j][k];
        tL[i][j] = s / d;
      }
    }
    CLOBBER();
  }
}

/* train_popcount: bits set in each of 512 words, a shift-and-mask loop */
void train_popcount(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < 512; i++) {
      unsigned x = tu[i];
      int c = 0;
      for (int b = 0; b < 32; b++)
        c += (x >> b) & 1u;
      tk[i] = c;
    }
    CLOBBER();
  }
}

/* train_crc32: bitwise CRC-32 of 512 bytes (8 shift/xor steps per byte) */
void train_crc32(long R) {
  for (long r = 0; r < R; r++) {
    unsigned crc = 0xFFFFFFFFu;
    for (long i = 0; i < 512; i++) {
      crc ^= ts[i];
      for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    B(crc);
    CLOBBER();
  }
}

/* train_fnv1a: FNV-1a hash of 2048 bytes (xor, multiply chain) */
void train_fnv1a(long R) {
  for (long r = 0; r < R; r++) {
    unsigned h = 2166136261u;
    for (long i = 0; i < TN; i++)
      h = (h ^ ts[i]) * 16777619u;
    B(h);
    CLOBBER();
  }
}

/* train_strscan: count the blanks in 2048 characters */
void train_strscan(long R) {
  for (long r = 0; r < R; r++) {
    int c = 0;
    for (long i = 0; i < TN; i++)
      if (ts[i] == ' ')
        c++;
    B(c);
    CLOBBER();
  }
}

/* train_oddeven_sort: odd-even transposition sort of 64 ints (copied in) */
void train_oddeven_sort(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < 64; i++)
      tk[i] = ti[i];
    for (long p = 0; p < 32; p++) {
      for (long j = 0; j < 63; j += 2)
        if (tk[j] > tk[j + 1]) {
          int t = tk[j];
          tk[j] = tk[j + 1];
          tk[j + 1] = t;
        }
      for (long j = 1; j < 63; j += 2)
        if (tk[j] > tk[j + 1]) {
          int t = tk[j];
          tk[j] = tk[j + 1];
          tk[j + 1] = t;
        }
    }
    CLOBBER();
  }
}

/* train_bsearch: 256 binary searches in 2048 sorted ints (11 halving steps each) */
void train_bsearch(long R) {
  for (long r = 0; r < R; r++) {
    long found = 0;
    for (long q = 0; q < 256; q++) {
      int key = tj[q] * 61;
      long lo = 0, half = TN / 2;
      for (int k = 0; k < 11; k++) {
        if (tsorted[lo + half] <= key)
          lo += half;
        half >>= 1;
      }
      found += lo;
    }
    B(found);
    CLOBBER();
  }
}

/* train_exp_log: d = exp(a) + log(b), 512 doubles */
void train_exp_log(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < 512; i++)
      td[i] = exp(ta[i]) + log(tb[i]);
    CLOBBER();
  }
}

/* train_sqrt_sin: d = sqrt(b) sin(a), 512 doubles */
void train_sqrt_sin(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < 512; i++)
      td[i] = sqrt(tb[i]) * sin(ta[i]);
    CLOBBER();
  }
}

/* train_div_f64: d = a / b, 2048 doubles */
void train_div_f64(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TN; i++)
      td[i] = ta[i] / tb[i];
    CLOBBER();
  }
}

/* train_idiv_i32: k = i / j + i % j, 2048 ints */
void train_idiv_i32(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TN; i++)
      tk[i] = ti[i] / tj[i] + ti[i] % tj[i];
    CLOBBER();
  }
}

/* train_branchy: if (a > 0.65) s += a else s -= 2 b, 2048 doubles (period-7 pattern) */
void train_branchy(long R) {
  for (long r = 0; r < R; r++) {
    double s = 0;
    for (long i = 0; i < TN; i++) {
      if (ta[i] > 0.65)
        s += ta[i];
      else
        s -= 2.0 * tb[i];
    }
    BF(s);
    CLOBBER();
  }
}

/* train_iir: second-order IIR filter over 2048 doubles (a recurrence) */
void train_iir(long R) {
  for (long r = 0; r < R; r++) {
    td[0] = tb[0];
    td[1] = tb[1];
    for (long i = 2; i < TN; i++)
      td[i] = 0.2 * tb[i] + 0.5 * td[i - 1] - 0.1 * td[i - 2];
    CLOBBER();
  }
}

/* train_horner7: degree-7 polynomial at 2048 points (Horner) */
void train_horner7(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TN; i++) {
      double x = tc[i];
      td[i] = ((((((thc[7] * x + thc[6]) * x + thc[5]) * x + thc[4]) * x + thc[3]) * x +
                thc[2]) * x + thc[1]) * x + thc[0];
    }
    CLOBBER();
  }
}

/* train_ell_spmv: sparse matrix-vector product, ELL format, 384 rows x 5 nonzeros, indirect x[col] */
void train_ell_spmv(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < 384; i++) {
      double s = 0;
      for (long k = 0; k < 5; k++)
        s += tval[i * 5 + k] * ta[tcol[i * 5 + k]];
      td[i] = s;
    }
    CLOBBER();
  }
}

/* train_stencil3d: 3-D 7-point stencil, 16^3 doubles */
void train_stencil3d(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 1; i < TV - 1; i++)
      for (long j = 1; j < TV - 1; j++)
        for (long k = 1; k < TV - 1; k++)
          tW3[i][j][k] = 0.4 * tV3[i][j][k] +
                         0.1 * (tV3[i - 1][j][k] + tV3[i + 1][j][k] + tV3[i][j - 1][k] +
                                tV3[i][j + 1][k] + tV3[i][j][k - 1] + tV3[i][j][k + 1]);
    CLOBBER();
  }
}

/* train_convert: int -> float and double -> int conversions, 2048 each */
void train_convert(long R) {
  for (long r = 0; r < R; r++) {
    for (long i = 0; i < TN; i++) {
      tg[i] = (float)ti[i] * 0.5f;
      tk[i] = (int)(tb[i] * 100.0);
    }
    CLOBBER();
  }
}

/* train_colsum_i32: column sums of a 64 x 64 int matrix (column-wise walk) */
void train_colsum_i32(long R) {
  for (long r = 0; r < R; r++) {
    for (long j = 0; j < TM; j++) {
      int s = 0;
      for (long i = 0; i < TM; i++)
        s += tI[i][j];
      tk[j] = s;
    }
    CLOBBER();
  }
}
