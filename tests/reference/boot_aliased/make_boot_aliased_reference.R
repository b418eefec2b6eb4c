# R's answer for a bootstrap of lm coefficients where a column is aliased in some resamples:
# lm gives NA for that coefficient (as boot's t matrix holds), and print.boot's std. error
# and bias use the non-NA replicates of each column.
# Run from this directory:  python make_data.py && Rscript make_boot_aliased_reference.R
source("../json_writer.R")
d <- read.csv("data.csv")
idx <- as.matrix(read.csv("indices.csv", header = FALSE))
stat <- function(data, i) coef(lm(y ~ x1 + x2 + x3 + d, data = data[i, ]))
t0 <- stat(d, seq_len(nrow(d)))
t <- t(apply(idx, 1, function(i) stat(d, i)))
se <- apply(t, 2, function(x) sd(x[!is.na(x)]))       # print.boot
bias <- apply(t, 2, function(x) mean(x[!is.na(x)])) - t0
out <- list(
  r_version = R.version.string,
  t0 = unname(t0),
  n_na = unname(colSums(is.na(t))),
  se = unname(se),
  bias = unname(bias),
  replicates = rows_of(t)
)
writeLines(to_json(out), "boot_aliased_reference.json")
