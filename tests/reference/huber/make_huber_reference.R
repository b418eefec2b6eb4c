# Reference numbers from MASS::rlm (Huber's psi) for the HuberRegressor tests.
#
# Run from this directory:
#
#     cd tests/reference/huber && Rscript make_huber_reference.R
#
# Requires R with the MASS package (Debian: r-cran-mass).
#
# rlm rescales the residuals by an estimated scale s; at convergence its coefficients solve
# the stationarity equations of the unscaled Huber loss with threshold delta = k * s, which is
# what HuberRegressor(delta = k * s) minimises. rlm is run to a tight tolerance (acc = 1e-13).
#
# Produces, in the current directory:
#   stackloss.csv           the data, every double written with 17 significant digits and read
#                           back to check that it gives the identical doubles.
#   huber_reference.json    for each k: rlm's coefficients (intercept first), its scale s and
#                           whether it converged. Doubles are printed with sprintf("%.17g"); the
#                           R and MASS versions are recorded at the top level.

options(warn = 1)
suppressPackageStartupMessages(library(MASS))

num <- function(x) paste0("[", paste(sprintf("%.17g", x), collapse = ", "), "]")
str <- function(x) paste0("[", paste0("\"", x, "\"", collapse = ", "), "]")

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

sl <- stackloss
rownames(sl) <- NULL
d <- write_csv17(sl, "stackloss.csv")
ks <- c(1.345, 2)
fits <- lapply(ks, function(k) rlm(stack.loss ~ ., data = d, psi = psi.huber, k = k,
                                    maxit = 1000, acc = 1e-13))
entries <- vapply(seq_along(ks), function(i) {
  f <- fits[[i]]
  sprintf('    {"k": %.17g, "coefficients": %s, "s": %.17g, "converged": %s}',
          ks[i], num(unname(coef(f))), f$s, if (f$converged) "true" else "false")
}, character(1))
lines <- c(
  "{",
  sprintf('  "r_version": "%s",', R.version.string),
  sprintf('  "mass_version": "%s",', as.character(packageVersion("MASS"))),
  '  "generated_by": "tests/reference/huber/make_huber_reference.R",',
  '  "data_file": "stackloss.csv",',
  '  "response": "stack.loss",',
  sprintf('  "predictors": %s,', str(c("Air.Flow", "Water.Temp", "Acid.Conc."))),
  '  "fits": [',
  paste(entries, collapse = ",\n"),
  "  ]",
  "}"
)
writeLines(lines, "huber_reference.json")
cat("wrote huber_reference.json\n")
