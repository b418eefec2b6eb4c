# Reference numbers for statlearning.model_selection.bootstrap / jackknife from R's boot.
# Run from this directory:  Rscript make_boot_reference.R
# Writes boot_data.csv (the input, 17 significant digits) and boot_reference.json.
library(boot)

set.seed(20261126)
n <- 25
u <- round(rexp(n, rate = 1 / 50) + 5, 1)
v <- round(u * exp(rnorm(n, 0.2, 0.3)), 1)
d <- data.frame(u = u, v = v)
write.csv(format(d, digits = 17), "boot_data.csv", row.names = FALSE, quote = FALSE)
d <- read.csv("boot_data.csv")  # use exactly the doubles Python reads

stat <- function(data, i) {
  c(cor(data$u[i], data$v[i]), mean(data$v[i]) / mean(data$u[i]))
}
R <- 20000
set.seed(1)
b <- boot(d, stat, R = R)

num <- function(x) paste0("[", paste(sprintf("%.17g", x), collapse = ", "), "]")
out <- character()
add <- function(key, value) out <<- c(out, sprintf('  "%s": %s', key, value))
str <- function(x) sprintf('"%s"', x)

add("r_version", str(R.version.string))
add("boot_version", str(as.character(packageVersion("boot"))))
add("n_resamples", R)
add("statistics", '["cor(u, v)", "mean(v) / mean(u)"]')
add("t0", num(b$t0))
add("se", num(apply(b$t, 2, sd)))
add("bias", num(colMeans(b$t) - b$t0))
acc <- numeric(); bca_low <- numeric(); bca_high <- numeric()
perc_low <- numeric(); perc_high <- numeric(); norm_low <- numeric(); norm_high <- numeric()
jack_se <- numeric()
for (k in 1:2) {
  # Jackknife influence values centred at the mean of the leave-one-out replicates
  # (Efron & Tibshirani 1993, eq. 14.15). boot's empinf(type = "jack") centres at t0 instead;
  # the BCa interval below uses these L, so its acceleration is Efron's.
  tj <- sapply(seq_len(n), function(i) stat(d, seq_len(n)[-i])[k])
  L <- (n - 1) * (mean(tj) - tj)
  acc <- c(acc, sum(L^3) / (6 * sum(L^2)^1.5))
  jack_se <- c(jack_se, sqrt(sum(L^2) / (n * (n - 1))))
  ci <- boot.ci(b, conf = 0.95, type = c("bca", "perc", "norm"), index = k, L = L)
  bca_low <- c(bca_low, ci$bca[4]); bca_high <- c(bca_high, ci$bca[5])
  perc_low <- c(perc_low, ci$percent[4]); perc_high <- c(perc_high, ci$percent[5])
  norm_low <- c(norm_low, ci$normal[2]); norm_high <- c(norm_high, ci$normal[3])
}
add("acceleration_jack", num(acc))
add("jackknife_se", num(jack_se))
add("bca_low", num(bca_low))
add("bca_high", num(bca_high))
add("perc_low", num(perc_low))
add("perc_high", num(perc_high))
add("norm_low", num(norm_low))
add("norm_high", num(norm_high))
writeLines(c("{", paste(out, collapse = ",\n"), "}"), "boot_reference.json")
