# Reference adjusted p-values from R's stats::p.adjust for statlearning.metrics.p_adjust.
# Run from this directory:  Rscript make_p_adjust_reference.R
# Writes p_adjust_reference.json: for each case the input p-values (NA as null), the n given
# (null for R's default) and the adjusted values of every method.
source("../json_writer.R")

set.seed(20261126)
cases <- list(
  uniform = list(p = runif(25), n = NULL),
  small = list(p = c(0.01, 0.02, 0.03, 0.04, 0.05), n = NULL),
  ties = list(p = c(0.04, 0.01, 0.04, 0.2, 0.01, 0.5, 0.04, 1, 0), n = NULL),
  with_na = list(p = c(0.003, NA, 0.02, 0.4, NA, 0.011, 0.09), n = NULL),
  more_tests = list(p = c(0.001, 0.01, 0.02, 0.3), n = 10L),
  two = list(p = c(0.02, 0.04), n = NULL),
  one = list(p = 0.03, n = NULL),
  mixed = list(p = c(rbeta(30, 0.3, 4), runif(30)), n = NULL)
)
methods <- c("holm", "hochberg", "hommel", "bonferroni", "BH", "BY", "fdr", "none")
out <- list(r_version = R.version.string, cases = list())
for (name in names(cases)) {
  cs <- cases[[name]]
  adj <- list()
  for (m in methods) {
    adj[[m]] <- I(if (is.null(cs$n)) p.adjust(cs$p, m) else p.adjust(cs$p, m, n = cs$n))
  }
  out$cases[[name]] <- list(p = I(cs$p), n = if (is.null(cs$n)) NA else cs$n, adjusted = adj)
}
writeLines(to_json(out), "p_adjust_reference.json")
