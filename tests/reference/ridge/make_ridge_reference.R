# Reference numbers from MASS::lm.ridge and glmnet (ridge) for the Ridge tests.
#
# Run from this directory:
#
#     cd tests/reference/ridge && Rscript make_ridge_reference.R
#
# Requires R with the MASS and glmnet packages (Debian: r-cran-mass, r-cran-glmnet).
#
# Produces, in the current directory:
#   longley.csv, mtcars.csv   the data, every double written with 17 significant digits and
#                             read back to check that it gives the identical doubles; the
#                             fits are made on the read-back data.
#   ridge_reference.json      for lm.ridge (longley, Employed ~ .): for each lambda the
#                             coefficients on the original scale (coef(fit), intercept first),
#                             lm.ridge's internal column scales and its GCV; for glmnet
#                             (mtcars, mpg ~ wt + hp + qsec + drat, alpha = 0,
#                             standardize = FALSE): for each lambda the coefficients.
#                             Doubles are printed with sprintf("%.17g"). The R, MASS and glmnet
#                             versions are recorded at the top level.

options(warn = 1)
suppressPackageStartupMessages({
  library(MASS)
  library(glmnet)
})

json_scalar <- function(x) {
  if (is.character(x)) return(paste0("\"", gsub("\"", "\\\"", x, fixed = TRUE), "\""))
  if (is.logical(x)) return(ifelse(x, "true", "false"))
  if (is.integer(x)) return(sprintf("%d", x))
  ifelse(is.finite(x), sprintf("%.17g", x), "null")
}

to_json <- function(x, indent = 0L) {
  pad <- strrep("  ", indent + 1L)
  if (is.list(x)) {
    parts <- vapply(x, to_json, character(1), indent = indent + 1L)
    if (!is.null(names(x))) {
      items <- paste0(pad, "\"", names(x), "\": ", parts)
      return(paste0("{\n", paste(items, collapse = ",\n"), "\n", strrep("  ", indent), "}"))
    }
    return(paste0("[\n", paste0(pad, parts, collapse = ",\n"), "\n", strrep("  ", indent), "]"))
  }
  if (length(x) == 1L && !inherits(x, "AsIs")) return(json_scalar(unclass(x)))
  paste0("[", paste(vapply(unclass(x), json_scalar, character(1)), collapse = ", "), "]")
}

write_csv17 <- function(d, file) {
  out <- d
  for (nm in names(out)) out[[nm]] <- sprintf("%.17g", as.double(out[[nm]]))
  write.csv(out, file, row.names = FALSE, quote = FALSE)
  back <- read.csv(file, check.names = FALSE)
  for (nm in names(d)) {
    if (!identical(as.double(back[[nm]]), as.double(d[[nm]])))
      stop("column ", nm, " of ", file, " does not read back identically")
  }
  back
}

# --- MASS::lm.ridge on longley ---------------------------------------------------------------
lg <- longley
rownames(lg) <- NULL
lg <- write_csv17(lg, "longley.csv")
predictors <- c("GNP.deflator", "GNP", "Unemployed", "Armed.Forces", "Population", "Year")
lambdas <- c(0, 0.001, 0.01, 0.1, 1, 10)
fit <- lm.ridge(Employed ~ ., data = lg, lambda = lambdas)
cf <- coef(fit)  # one row per lambda, original scale, intercept first
stopifnot(identical(colnames(cf)[-1], predictors))
lm_ridge <- list(
  data_file = "longley.csv",
  response = "Employed",
  predictors = I(predictors),
  lambda = I(lambdas),
  coef = lapply(seq_along(lambdas), function(i) I(unname(cf[i, ]))),
  scales = I(unname(fit$scales)),
  gcv = I(unname(fit$GCV))
)

# --- glmnet ridge (alpha = 0) on mtcars -------------------------------------------------------
mt <- mtcars[, c("wt", "hp", "qsec", "drat", "mpg")]
rownames(mt) <- NULL
mt <- write_csv17(mt, "mtcars.csv")
x <- as.matrix(mt[, 1:4])
y <- mt$mpg
glm_lambdas <- c(0.01, 0.1, 1)
gfit <- glmnet(x, y, family = "gaussian", alpha = 0, lambda = glm_lambdas,
               standardize = FALSE, intercept = TRUE, thresh = 1e-30, maxit = 1e8)
gcoef <- as.matrix(coef(gfit))  # columns follow gfit$lambda (decreasing)
ord <- match(glm_lambdas, gfit$lambda)
stopifnot(!anyNA(ord))
glmnet_ridge <- list(
  data_file = "mtcars.csv",
  response = "mpg",
  predictors = I(colnames(x)),
  lambda = I(glm_lambdas),
  coef = lapply(ord, function(j) I(unname(gcoef[, j]))),
  n = nrow(x),
  sd_y = sqrt(mean((y - mean(y))^2))
)

out <- list(
  r_version = R.version.string,
  mass_version = as.character(packageVersion("MASS")),
  glmnet_version = as.character(packageVersion("glmnet")),
  generated_by = "tests/reference/ridge/make_ridge_reference.R",
  lm_ridge = lm_ridge,
  glmnet_ridge = glmnet_ridge
)
con <- file("ridge_reference.json", open = "w", encoding = "UTF-8")
writeLines(to_json(out), con)
close(con)
cat("wrote ridge_reference.json\n")
