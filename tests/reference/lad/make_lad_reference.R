# Reference numbers from quantreg::rq(tau = 0.5) (least absolute deviations) for the
# LADRegressor tests.
#
# Run from this directory:
#
#     cd tests/reference/lad && Rscript make_lad_reference.R
#
# Requires R with the quantreg package (Debian: r-cran-quantreg).
#
# Produces, in the current directory:
#   <case>.csv            the data of each case (predictors, response, weights when used), every
#                         double written with 17 significant digits and read back to check that
#                         it gives the identical doubles; the fits use the read-back data.
#   lad_reference.json    for each case: rq's coefficients (method "br", Barrodale-Roberts
#                         simplex; intercept first when fitted), the objective
#                         sum(w * |residual|), and the warnings rq raised (none: every case has a
#                         unique solution). Doubles are printed with sprintf("%.17g"); the R and
#                         quantreg versions are recorded at the top level.

options(warn = 1)
suppressPackageStartupMessages(library(quantreg))

json_scalar <- function(x) {
  if (is.character(x)) return(paste0("\"", gsub("\"", "\\\"", x, fixed = TRUE), "\""))
  if (is.logical(x)) return(ifelse(x, "true", "false"))
  if (is.integer(x)) return(sprintf("%d", x))
  ifelse(is.finite(x), sprintf("%.17g", x), "null")
}

to_json <- function(x, indent = 0L) {
  pad <- strrep("  ", indent + 1L)
  if (is.null(x)) return("null")
  if (is.list(x)) {
    if (length(x) == 0L) return("[]")
    parts <- vapply(x, to_json, character(1), indent = indent + 1L)
    if (!is.null(names(x))) {
      items <- paste0(pad, "\"", names(x), "\": ", parts)
      return(paste0("{\n", paste(items, collapse = ",\n"), "\n", strrep("  ", indent), "}"))
    }
    return(paste0("[\n", paste0(pad, parts, collapse = ",\n"), "\n", strrep("  ", indent), "]"))
  }
  if (length(x) == 0L) return("[]")
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

with_warnings <- function(expr) {
  msgs <- character(0)
  value <- withCallingHandlers(expr, warning = function(w) {
    msgs <<- c(msgs, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  list(value = value, warnings = unique(msgs))
}

data(engel, package = "quantreg")
sl <- stackloss
rownames(sl) <- NULL
sl_w <- cbind(sl, weight = c(1, 2, 3)[(seq_len(nrow(sl)) %% 3) + 1])
eng <- engel[, c("income", "foodexp")]
rownames(eng) <- NULL

cases <- list(
  stackloss = list(data = sl, formula = "stack.loss ~ .", response = "stack.loss",
                   predictors = c("Air.Flow", "Water.Temp", "Acid.Conc."), intercept = TRUE,
                   weights = NULL),
  stackloss_weighted = list(data = sl_w, formula = "stack.loss ~ Air.Flow + Water.Temp + Acid.Conc.",
                            response = "stack.loss",
                            predictors = c("Air.Flow", "Water.Temp", "Acid.Conc."),
                            intercept = TRUE, weights = "weight"),
  stackloss_no_intercept = list(data = sl, formula = "stack.loss ~ 0 + .",
                                response = "stack.loss",
                                predictors = c("Air.Flow", "Water.Temp", "Acid.Conc."),
                                intercept = FALSE, weights = NULL),
  engel = list(data = eng, formula = "foodexp ~ income", response = "foodexp",
               predictors = "income", intercept = TRUE, weights = NULL)
)

reference_for <- function(name, spec) {
  file <- paste0(name, ".csv")
  d <- write_csv17(spec$data, file)
  fml <- as.formula(spec$formula)
  fit <- if (is.null(spec$weights)) {
    with_warnings(rq(fml, tau = 0.5, data = d, method = "br"))
  } else {
    wts <- d[[spec$weights]]
    with_warnings(rq(fml, tau = 0.5, data = d, weights = wts, method = "br"))
  }
  cf <- coef(fit$value)
  w <- if (is.null(spec$weights)) rep(1, nrow(d)) else d[[spec$weights]]
  list(
    formula = spec$formula,
    data_file = file,
    response = spec$response,
    predictors = I(spec$predictors),
    intercept = spec$intercept,
    weights_column = spec$weights,
    coef_names = I(names(cf)),
    coefficients = I(unname(cf)),
    objective = sum(w * abs(residuals(fit$value))),
    warnings = I(fit$warnings)
  )
}

out <- list(
  r_version = R.version.string,
  quantreg_version = as.character(packageVersion("quantreg")),
  generated_by = "tests/reference/lad/make_lad_reference.R",
  cases = I(names(cases))
)
for (nm in names(cases)) out[[nm]] <- reference_for(nm, cases[[nm]])
con <- file("lad_reference.json", open = "w", encoding = "UTF-8")
writeLines(to_json(out), con)
close(con)
cat("wrote lad_reference.json\n")
