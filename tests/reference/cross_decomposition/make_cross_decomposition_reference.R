# Reference numbers for statlearning.cross_decomposition: stats::cancor, pls::plsr
# (oscorespls, simpls, kernelpls; one and three responses), pls::pcr, with CV on fixed
# consecutive segments. Run from this directory:
#   Rscript make_cross_decomposition_reference.R
# It writes cross_decomposition_data.csv (the data) and cross_decomposition_reference.json.
source("../json_writer.R")
suppressMessages(library(pls))

set.seed(20261126)
n <- 40; p <- 6
Z <- matrix(rnorm(n * p), n, p)
mix <- matrix(c(1, .5, 0, 0, .3, 0,
                0, 1, .4, 0, 0, 0,
                0, 0, 1, .6, 0, .2,
                0, 0, 0, 1, .5, 0,
                0, 0, 0, 0, 1, .3,
                0, 0, 0, 0, 0, 1), p, p, byrow = TRUE)
X <- Z %*% mix
X <- sweep(sweep(X, 2, c(1, 10, 0.1, 2, 5, 0.5), "*"), 2, c(3, -20, 1, 0, 100, 7), "+")
colnames(X) <- paste0("x", 1:p)
B <- matrix(c(1, 0.1, -20, 0.5, 0.02, 2,
              0, 0.3, 5, -1, 0, 1,
              -1, 0, 0, 0.2, 0.05, -3), p, 3)
Y <- X %*% B + matrix(rnorm(n * 3, sd = c(1, 2, 0.5)), n, 3, byrow = TRUE)
colnames(Y) <- paste0("y", 1:3)
fold <- rep(1:8, each = 5)  # 8 consecutive segments of 5 rows
write.csv(data.frame(X, Y, fold = fold), "cross_decomposition_data.csv", row.names = FALSE)
segs <- split(seq_len(n), fold)

cc <- cancor(X, Y)
cc1 <- cancor(X[, 1:3], Y[, 1:2])

mat <- function(m) rows_of(unclass(m))
pls_fit <- function(Yr, method, ncomp = 4) {
  d <- data.frame(X = I(X), Y = I(Yr))
  f <- plsr(Y ~ X, ncomp = ncomp, data = d, scale = TRUE, method = method,
            validation = "CV", segments = segs)
  rm <- RMSEP(f)$val  # [estimate, response, 0..ncomp]
  out <- list(
    coefficients = lapply(seq_len(ncomp), function(a) mat(t(f$coefficients[, , a, drop = FALSE][, , 1]))),
    intercepts = lapply(seq_len(ncomp), function(a) I(unname(coef(f, ncomp = a, intercept = TRUE)[1, , 1]))),
    scores = mat(f$scores), loadings = mat(f$loadings),
    Yloadings = mat(f$Yloadings), projection = mat(f$projection), Yscores = mat(f$Yscores),
    explvar = I(unname(explvar(f))),
    rmsep_cv = mat(matrix(rm["CV", , ], nrow = dim(rm)[2])),
    rmsep_adjcv = mat(matrix(rm["adjCV", , ], nrow = dim(rm)[2])),
    printed = capture.output(summary(f))
  )
  if (!is.null(f$loading.weights)) out$loading_weights <- mat(f$loading.weights)
  out
}
pcr_fit <- function(Yr, ncomp = 6) {
  d <- data.frame(X = I(X), Y = I(Yr))
  f <- pcr(Y ~ X, ncomp = ncomp, data = d, scale = TRUE, validation = "CV", segments = segs)
  rm <- RMSEP(f)$val
  list(
    coefficients = lapply(seq_len(ncomp), function(a) mat(t(f$coefficients[, , a, drop = FALSE][, , 1]))),
    intercepts = lapply(seq_len(ncomp), function(a) I(unname(coef(f, ncomp = a, intercept = TRUE)[1, , 1]))),
    explvar = I(unname(explvar(f))),
    rmsep_cv = mat(matrix(rm["CV", , ], nrow = dim(rm)[2])),
    rmsep_adjcv = mat(matrix(rm["adjCV", , ], nrow = dim(rm)[2])),
    onesigma = selectNcomp(pcr(Y ~ X, ncomp = ncomp, data = data.frame(X = I(X), Y = I(Yr[, 1, drop = FALSE])),
                               scale = TRUE, validation = "CV", segments = segs), "onesigma")
  )
}

ref <- list(
  r_version = R.version.string,
  pls_version = as.character(packageVersion("pls")),
  cancor = list(cor = I(cc$cor), xcoef = mat(cc$xcoef), ycoef = mat(cc$ycoef),
                xcenter = I(unname(cc$xcenter)), ycenter = I(unname(cc$ycenter))),
  cancor_small = list(cor = I(cc1$cor), xcoef = mat(cc1$xcoef), ycoef = mat(cc1$ycoef)),
  pls1 = list(oscorespls = pls_fit(Y[, 1, drop = FALSE], "oscorespls"),
              simpls = pls_fit(Y[, 1, drop = FALSE], "simpls"),
              kernelpls = pls_fit(Y[, 1, drop = FALSE], "kernelpls")),
  pls2 = list(oscorespls = pls_fit(Y, "oscorespls"),
              simpls = pls_fit(Y, "simpls"),
              kernelpls = pls_fit(Y, "kernelpls")),
  pcr1 = pcr_fit(Y[, 1, drop = FALSE]),
  pcr2 = pcr_fit(Y)
)
writeLines(to_json(ref), "cross_decomposition_reference.json")
