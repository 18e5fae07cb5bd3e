/*
 * multifile.h -- the functions main.c calls in kernel.c and util.c.
 */
#ifndef MULTIFILE_H
#define MULTIFILE_H

/* kernel.c */
void jacobi_sweeps(int n, int steps, double *u, double *v);
void gemv(int n, const double *a, const double *x, double *y);
void fill_vector(int n, double *x);

/* util.c */
void timer_start(void);
double timer_stop(void);

#endif
