# Reference numbers for the kernels, KernelRidge and KernelDensity tests.
#
# Run from this directory:
#
#     cd tests/reference/kernels && Rscript make_kernels_reference.R
#
# Requires R with kernlab (Debian: r-cran-kernlab). The JSON is written by
# ../json_writer.R.
#
# Produces, in the current directory:
#   mtcars_kernels.csv
#       mtcars[, c("wt", "hp", "qsec", "drat")] standardised (scale()), then
#       mpg; rows 1-24 train, 25-32 test. Written with 17 significant digits and
#       read back; everything below uses the read-back doubles.
#   kernels_reference.json
#       gram: kernlab::kernelMatrix on (train, train) and (test, train) for
#         rbfdot(sigma = 0.3)            = our RBF(gamma = 0.3)
#         polydot(degree = 3, scale = 0.5, offset = 1) = our Polynomial(3, 0.5, 1)
#         vanilladot()                   = our Linear()
#       krr: kernel ridge fits written out as linear algebra in R, lambda = 0.7:
#         dual      c = solve(K + lambda I, y) (rbf), predictions on test;
#         intercept (b, c) minimising sum w (y - b - K c)^2 + lambda c'Kc with
#                   weights w = 1 + (1:24 %% 3) / 2, from the normal equations
#                   of [1, K] with penalty blockdiag(0, lambda K); predictions on test.
#       kde: log densities by the explicit formula (log-sum-exp) of the Gaussian and
#         Epanechnikov kernels on the first two columns of train, bandwidth 0.6,
#         at the test rows and at the far points (6, 6) and (40, -3).
#   R and kernlab versions are recorded at the top level.

source("../json_writer.R")
suppressPackageStartupMessages(library(kernlab))

raw <- mtcars[, c("wt", "hp", "qsec", "drat")]
X0 <- scale(as.matrix(raw))
out <- data.frame(X0, mpg = mtcars$mpg)
write.csv(format(out, digits = 17), "mtcars_kernels.csv", row.names = FALSE, quote = FALSE)
back <- read.csv("mtcars_kernels.csv")
stopifnot(isTRUE(all.equal(as.matrix(back[, 1:4]), unname(X0), tolerance = 0,
                           check.attributes = FALSE)))
X <- as.matrix(back[, 1:4])
y <- back$mpg
tr <- 1:24
te <- 25:32
Xtr <- X[tr, ]
Xte <- X[te, ]
ytr <- y[tr]

kerns <- list(
  rbf = rbfdot(sigma = 0.3),
  poly = polydot(degree = 3, scale = 0.5, offset = 1),
  linear = vanilladot()
)
gram <- lapply(kerns, function(k) list(
  train = rows_of(kernelMatrix(k, Xtr)@.Data),
  test = rows_of(kernelMatrix(k, Xte, Xtr)@.Data)
))

lambda <- 0.7
K <- kernelMatrix(kerns$rbf, Xtr)@.Data
Kte <- kernelMatrix(kerns$rbf, Xte, Xtr)@.Data
c_dual <- solve(K + lambda * diag(24), ytr)
w <- 1 + (tr %% 3) / 2
A <- cbind(1, K)
P <- matrix(0, 25, 25)
P[2:25, 2:25] <- lambda * K
sol <- solve(t(A) %*% (w * A) + P, t(A) %*% (w * ytr))
krr <- list(
  lambda = lambda,
  dual_coef = I(as.vector(c_dual)),
  dual_predict = I(as.vector(Kte %*% c_dual)),
  weights = I(w),
  intercept = sol[1],
  intercept_predict = I(as.vector(sol[1] + Kte %*% sol[-1]))
)

logsumexp <- function(v) { m <- max(v); if (!is.finite(m)) return(m); m + log(sum(exp(v - m))) }
h <- 0.6
Z <- Xtr[, 1:2]
Q <- rbind(Xte[, 1:2], c(6, 6), c(40, -3))
d2 <- sapply(seq_len(nrow(Z)), function(j) rowSums((Q - matrix(Z[j, ], nrow(Q), 2, byrow = TRUE))^2))
gauss <- apply(-0.5 * d2 / h^2, 1, logsumexp) - log(24) - log(2 * pi * h^2)
# Epanechnikov in 2-D: (1 - u^2)_+ times 2 / (pi h^2) (the unit disc has area pi, and the
# kernel integrates to pi / 2 over it)
epa <- apply(log(pmax(1 - d2 / h^2, 0)), 1, logsumexp) - log(24) + log(2 / (pi * h^2))
kde <- list(bandwidth = h, queries = rows_of(Q), gaussian = I(gauss),
            epanechnikov = I(ifelse(is.finite(epa), epa, NA)))

result <- list(
  r_version = R.version.string,
  kernlab_version = as.character(packageVersion("kernlab")),
  gram = gram,
  krr = krr,
  kde = kde
)
writeLines(to_json(result), "kernels_reference.json")
