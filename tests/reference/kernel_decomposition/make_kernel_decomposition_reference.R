# Reference numbers for the KernelPCA tests (kernlab::kpca).
#
# Run from this directory:
#
#     cd tests/reference/kernel_decomposition && Rscript make_kernel_decomposition_reference.R
#
# Requires R with kernlab (Debian: r-cran-kernlab). The JSON is written by
# ../json_writer.R.
#
# Produces, in the current directory:
#   iris_kpca.csv
#       iris[, 1:4] (every row); rows with index %% 5 == 0 (1-based) are the test rows,
#       the other 120 the training rows. Written with 17 significant digits and read
#       back; everything below uses the read-back doubles.
#   kpca_reference.json
#       for each kernel, kpca(Xtr, kernel, kpar, features = k):
#         rbf    rbfdot(sigma = 0.2)                        = our RBF(gamma = 0.2)
#         poly   polydot(degree = 2, scale = 0.5, offset = 1) = our Polynomial(2, 0.5, 1)
#         linear vanilladot()                               = our Linear()
#       eig (kernlab's eig(): eigenvalues of the centred Gram divided by m),
#       rotated (kernlab's rotated(): centred Gram times pcv), pcv, and
#       predict(fit, Xte) (the test rows projected).
#   R and kernlab versions are recorded at the top level.

source("../json_writer.R")
suppressPackageStartupMessages(library(kernlab))

X0 <- as.matrix(iris[, 1:4])
write.csv(format(data.frame(X0), digits = 17), "iris_kpca.csv", row.names = FALSE,
          quote = FALSE)
back <- read.csv("iris_kpca.csv")
stopifnot(isTRUE(all.equal(as.matrix(back), unname(X0), tolerance = 0,
                           check.attributes = FALSE)))
X <- as.matrix(back)
te <- which(seq_len(nrow(X)) %% 5 == 0)
tr <- setdiff(seq_len(nrow(X)), te)
Xtr <- X[tr, ]
Xte <- X[te, ]

fits <- list(
  rbf = list(kernel = "rbfdot", kpar = list(sigma = 0.2), features = 5),
  poly = list(kernel = "polydot", kpar = list(degree = 2, scale = 0.5, offset = 1),
              features = 5),
  linear = list(kernel = "vanilladot", kpar = list(), features = 4)
)
out <- list()
for (name in names(fits)) {
  f <- fits[[name]]
  fit <- kpca(Xtr, kernel = f$kernel, kpar = f$kpar, features = f$features)
  out[[name]] <- list(
    features = f$features,
    eig = I(unname(eig(fit))),
    rotated = rows_of(rotated(fit)),
    pcv = rows_of(pcv(fit)),
    predict = rows_of(predict(fit, Xte))
  )
}

result <- list(
  r_version = R.version.string,
  kernlab_version = as.character(packageVersion("kernlab")),
  test_rows = I(te - 1L),
  kpca = out
)
writeLines(to_json(result), "kpca_reference.json")
