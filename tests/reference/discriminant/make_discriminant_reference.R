# Reference numbers from MASS::lda and MASS::qda for the discriminant-analysis tests.
#
# Run from this directory:
#
#     cd tests/reference/discriminant && Rscript make_discriminant_reference.R
#
# Requires R with the recommended package MASS (Debian: r-cran-mass). The JSON is
# written in base R by ../json_writer.R.
#
# Produces, in the current directory:
#   biopsy.csv   MASS::biopsy, complete cases (683 rows): V1..V9, class
#   iris.csv     R's iris: the four measurements, Species
#   discriminant_reference.json
#       r_version, mass_version, cases; for each case the data file, the
#       features, the class levels and, for each fit (lda, qda and the same
#       with equal priors):
#         prior, counts, means (one row per class),
#         lda: scaling (one row per feature, one column per LD), svd,
#              proportion_of_trace = svd^2 / sum(svd^2),
#         qda: covariances (cov() of each class, divisor n_k - 1), ldet
#              (log-determinant of each class covariance, as MASS stores it),
#         posterior (one row per training sample), class (predicted labels),
#         lda only: x (the LD scores of predict(), one row per sample).
#       Doubles are printed with sprintf("%.17g").
#
# Every CSV double is written with 17 significant digits and read back to
# check that it gives the identical doubles; the fits use the read-back data.

options(warn = 1)
suppressPackageStartupMessages(library(MASS))

# Minimal JSON writer (shared; see ../json_writer.R).
source("../json_writer.R")

write_case_csv <- function(d, file, label) {
  out <- d
  feats <- setdiff(names(d), label)
  for (nm in feats) out[[nm]] <- sprintf("%.17g", as.double(d[[nm]]))
  out[[label]] <- as.character(d[[label]])
  write.csv(out, file, row.names = FALSE, quote = FALSE)
  back <- read.csv(file, check.names = FALSE, stringsAsFactors = FALSE)
  stopifnot(identical(names(back), names(d)), nrow(back) == nrow(d))
  for (nm in feats) {
    if (!identical(as.double(back[[nm]]), as.double(d[[nm]])))
      stop("column ", nm, " of ", file, " does not read back identically")
  }
  back[[label]] <- factor(back[[label]], levels = levels(d[[label]]))
  back
}

bx <- biopsy[complete.cases(biopsy), c(paste0("V", 1:9), "class")]
rownames(bx) <- NULL
stopifnot(nrow(bx) == 683L)
ir <- iris

cases <- list(
  biopsy = list(data = bx, file = "biopsy.csv", label = "class"),
  iris = list(data = ir, file = "iris.csv", label = "Species")
)

fit_lda <- function(x, g, prior) {
  fit <- if (is.null(prior)) lda(x, g) else lda(x, g, prior = prior)
  pr <- predict(fit, x)
  list(prior = unname(fit$prior), counts = unname(fit$counts),
       means = rows_of(fit$means), scaling = rows_of(fit$scaling),
       svd = fit$svd, proportion_of_trace = fit$svd^2 / sum(fit$svd^2),
       posterior = rows_of(pr$posterior), class = as.character(pr$class),
       x = rows_of(pr$x))
}

fit_qda <- function(x, g, prior) {
  fit <- if (is.null(prior)) qda(x, g) else qda(x, g, prior = prior)
  pr <- predict(fit, x)
  covs <- lapply(levels(g), function(l) rows_of(cov(x[g == l, , drop = FALSE])))
  list(prior = unname(fit$prior), counts = unname(fit$counts),
       means = rows_of(fit$means), covariances = covs, ldet = fit$ldet,
       posterior = rows_of(pr$posterior), class = as.character(pr$class))
}

out <- list(
  r_version = R.version.string,
  mass_version = as.character(packageVersion("MASS")),
  generated_by = "make_discriminant_reference.R",
  cases = I(names(cases))
)
for (name in names(cases)) {
  spec <- cases[[name]]
  d <- write_case_csv(spec$data, spec$file, spec$label)
  feats <- setdiff(names(d), spec$label)
  x <- as.matrix(d[, feats])
  g <- d[[spec$label]]
  K <- nlevels(g)
  equal <- rep(1 / K, K)
  out[[name]] <- list(
    data_file = spec$file, features = I(feats), label = spec$label,
    levels = I(levels(g)),
    lda = fit_lda(x, g, NULL), lda_equal_priors = fit_lda(x, g, equal),
    qda = fit_qda(x, g, NULL), qda_equal_priors = fit_qda(x, g, equal)
  )
}
writeLines(to_json(out), "discriminant_reference.json")
