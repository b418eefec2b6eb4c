# Reference AUC and DeLong standard error from R's pROC for statlearning.metrics.auc_se.
# Run from this directory:  Rscript make_roc_reference.R
# Writes roc_data.csv (labels and scores, 17 significant digits) and roc_reference.json.
library(pROC)

set.seed(20261126)
n <- 60
y <- rbinom(n, 1, 0.4)
score <- round(y * 0.8 + rnorm(n), 1)  # rounding creates ties between the classes
write.csv(data.frame(y = y, score = sprintf("%.17g", score)), "roc_data.csv",
          row.names = FALSE, quote = FALSE)
d <- read.csv("roc_data.csv")

r <- roc(d$y, d$score, levels = c(0, 1), direction = "<", quiet = TRUE)
num <- function(x) sprintf("%.17g", x)
lines <- c(
  "{",
  sprintf('  "r_version": "%s",', R.version.string),
  sprintf('  "proc_version": "%s",', as.character(packageVersion("pROC"))),
  sprintf('  "auc": %s,', num(as.numeric(auc(r)))),
  sprintf('  "se_delong": %s', num(sqrt(var(r, method = "delong")))),
  "}"
)
writeLines(lines, "roc_reference.json")
