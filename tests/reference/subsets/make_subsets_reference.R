# Reference numbers from R's leaps::regsubsets and step() for the feature_selection tests.
#
# Run from this directory:
#
#     cd tests/reference/subsets && Rscript make_subsets_reference.R
#
# Requires R and leaps (Debian: r-cran-leaps). The JSON is written in base R below.
#
# Produces, in the current directory:
#   mtcars.csv, sim12.csv, pois6.csv, binom6.csv   the data (17 significant digits; the
#                       fits use the read-back data, so R and Python see the same doubles).
#   subsets_reference.json   for each data set and method ("exhaustive", "forward",
#                       "backward") of regsubsets(x, y, nvmax = p): the chosen variables
#                       for each size and summary()'s rss, rsq, adjr2, cp and bic; for each
#                       step() case the sequence of models (variables after each step) and
#                       their AIC (extractAIC, which step() prints). Doubles use "%.17g".

options(warn = 1)
suppressPackageStartupMessages(library(leaps))

write_exact <- function(df, file) {
  write.csv(format(df, digits = 17), file, row.names = FALSE, quote = FALSE)
  back <- read.csv(file)
  stopifnot(identical(unname(as.matrix(back)), unname(as.matrix(df))))
  back
}

num <- function(x) {
  if (length(x) == 0) return("[]")
  s <- ifelse(is.finite(x), sprintf("%.17g", x), "null")
  paste0("[", paste(s, collapse = ", "), "]")
}
str_vec <- function(x) {
  if (length(x) == 0) return("[]")
  paste0("[", paste0('"', x, '"', collapse = ", "), "]")
}
obj <- function(...) {
  kv <- list(...)
  paste0("{", paste0('"', names(kv), '": ', unlist(kv), collapse = ", "), "}")
}
arr <- function(items) paste0("[\n", paste(items, collapse = ",\n"), "\n]")

# ---------------------------------------------------------------------------- data
mt <- write_exact(mtcars[, c("mpg", "cyl", "disp", "hp", "drat", "wt", "qsec", "vs", "am",
                             "gear", "carb")], "mtcars.csv")
set.seed(20240512)
n <- 100; p <- 12
Z <- matrix(rnorm(n * p), n, p)
Z[, 2] <- Z[, 2] + 0.6 * Z[, 1]
Z[, 7] <- Z[, 7] - 0.5 * Z[, 3]
beta <- c(1.5, 0, -1, 0, 0.8, 0, 0, 0.4, 0, 0, -0.3, 0)
sim <- data.frame(y = drop(2 + Z %*% beta + rnorm(n)), Z)
names(sim) <- c("y", paste0("x", 1:p))
sim <- write_exact(sim, "sim12.csv")

n2 <- 200
W <- matrix(rnorm(n2 * 6), n2, 6)
pois <- data.frame(y = rpois(n2, exp(0.3 + 0.5 * W[, 1] - 0.4 * W[, 3] + 0.1 * W[, 5])), W)
names(pois) <- c("y", paste0("x", 1:6))
pois <- write_exact(pois, "pois6.csv")
binom <- data.frame(y = rbinom(n2, 1, plogis(-0.2 + 1.0 * W[, 2] - 0.7 * W[, 4])), W)
names(binom) <- c("y", paste0("x", 1:6))
binom <- write_exact(binom, "binom6.csv")

# ---------------------------------------------------------------------------- regsubsets
subset_case <- function(name, df, method) {
  x <- as.matrix(df[, -1]); y <- df[, 1]
  fit <- regsubsets(x, y, nvmax = ncol(x), method = method)
  s <- summary(fit)
  vars <- apply(s$which[, -1, drop = FALSE], 1, function(r) str_vec(colnames(x)[r]))
  obj(data = paste0('"', name, '"'), method = paste0('"', method, '"'),
      variables = arr(vars), rss = num(s$rss), rsq = num(s$rsq), adjr2 = num(s$adjr2),
      cp = num(s$cp), bic = num(s$bic))
}
cases <- c()
for (m in c("exhaustive", "forward", "backward")) {
  cases <- c(cases, subset_case("mtcars", mt, m), subset_case("sim12", sim, m))
}

# ---------------------------------------------------------------------------- step()
step_case <- function(name, df, family, direction) {
  full <- formula(paste("y ~", paste(names(df)[-1], collapse = " + ")))
  if (direction == "forward") {
    start <- glm(y ~ 1, family = family, data = df)
    path <- list(); aics <- c()
    fit <- step(start, scope = full, direction = "forward", trace = 0,
                keep = function(m, aic) list(vars = attr(terms(m), "term.labels"), aic = aic))
  } else {
    start <- glm(full, family = family, data = df)
    fit <- step(start, direction = direction, trace = 0,
                keep = function(m, aic) list(vars = attr(terms(m), "term.labels"), aic = aic))
  }
  kept <- fit$keep
  vars <- apply(kept, 2, function(k) str_vec(k$vars))
  aics <- sapply(seq_len(ncol(kept)), function(i) kept[, i]$aic)
  obj(data = paste0('"', name, '"'), family = paste0('"', family, '"'),
      direction = paste0('"', direction, '"'), models = arr(vars), aic = num(aics),
      final = str_vec(attr(terms(fit), "term.labels")))
}
steps <- c(step_case("pois6", pois, "poisson", "backward"),
           step_case("pois6", pois, "poisson", "forward"),
           step_case("binom6", binom, "binomial", "backward"),
           step_case("binom6", binom, "binomial", "both"))

lm_step <- function(direction) {
  df <- mt
  full <- lm(mpg ~ ., data = df)
  start <- if (direction == "forward") lm(mpg ~ 1, data = df) else full
  fit <- step(start, scope = formula(full), direction = direction, trace = 0,
              keep = function(m, aic) list(vars = attr(terms(m), "term.labels"), aic = aic))
  kept <- fit$keep
  vars <- apply(kept, 2, function(k) str_vec(k$vars))
  aics <- sapply(seq_len(ncol(kept)), function(i) kept[, i]$aic)
  obj(data = '"mtcars"', family = '"lm"', direction = paste0('"', direction, '"'),
      models = arr(vars), aic = num(aics), final = str_vec(attr(terms(fit), "term.labels")))
}
steps <- c(steps, lm_step("backward"), lm_step("forward"), lm_step("both"))

out <- paste0("{\n", '"r_version": "', R.version.string, '",\n',
              '"leaps_version": "', as.character(packageVersion("leaps")), '",\n',
              '"regsubsets": ', arr(cases), ",\n", '"step": ', arr(steps), "\n}\n")
writeLines(out, "subsets_reference.json")
