// How much of a device's compute a GEMM's shape lets it use (docs/forecast.md, "GEMM shapes"). A kernel splits the
// output C[M, N] of each weight matrix into tiles, runs them in waves of one tile per compute unit (SM, CU), and
// chooses the tile whose busy fraction times tile efficiency is highest. A small M (a short prompt, a tensor-
// parallel slice, the tokens one expert sees) leaves units idle in the last wave or forces small tiles that reuse
// less of what they load. Parameters are physical: the unit count, tiles of 16 to 128 rows and 64 or 128 columns;
// below 16 rows the kernel is a matrix-vector product on the vector units and the shape costs nothing.
#pragma once

namespace infercast {

// The fraction of the compute peak the shape allows: max over tiles tm in {16, 32, 64, 128}, tn in {64, 128} of
//   tiles / (waves x units) x min(1, (tm tn / (tm + tn)) / 64) x (M N) / (padded M x padded N),
// tiles = matrices x ceil(M / tm) x ceil(N / tn), waves = ceil(tiles / units). 1 when `units` is unknown (0).
double gemm_shape_efficiency(double M, double N, int units, double matrices = 1);

}  // namespace infercast
