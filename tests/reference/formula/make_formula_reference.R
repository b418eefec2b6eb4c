# R's printed summaries of models fitted through formulas, for tests/formula.
#
# Run from this directory:
#
#     cd tests/reference/formula && Rscript make_formula_reference.R
#
# Needs R with the recommended package splines (bs, ns). Writes:
#   gapminder2011.csv   the bundled gapminder data (src/statlearning/datasets/data), year
#                       2011, the columns the formulas use; missing values kept (gdp),
#                       so that R's na.omit is exercised. Doubles with 17 significant
#                       digits, checked by reading back.
#   binomial.csv        successes and failures of a small simulated binomial experiment.
#   <case>.txt          print(summary(fit)) for each case below, captured with
#                       options(width = 80, useFancyQuotes = FALSE).
# The Python tests fit the same formulas and compare the printed text character for
# character.

options(useFancyQuotes = FALSE, width = 80, digits = 7)
library(splines)

write_exact <- function(d, file) {
  out <- d
  for (nm in names(out)) if (is.double(out[[nm]])) out[[nm]] <- sprintf("%.17g", out[[nm]])
  out[is.na(d)] <- NA
  write.csv(out, file, row.names = FALSE, quote = TRUE, na = "")
  back <- read.csv(file, stringsAsFactors = TRUE)
  for (nm in names(d)) if (is.double(d[[nm]])) stopifnot(identical(back[[nm]], d[[nm]]))
}

g <- read.csv("../../../src/statlearning/datasets/data/gapminder.csv")
g <- g[g$year == 2011, c("country", "life_expectancy", "infant_mortality", "fertility",
                         "gdp", "continent")]
g <- g[!is.na(g$life_expectancy) & !is.na(g$infant_mortality) & !is.na(g$fertility), ]
rownames(g) <- NULL
write_exact(g, "gapminder2011.csv")
data <- read.csv("gapminder2011.csv", stringsAsFactors = TRUE)

set.seed(20261126)
x <- round(seq(-2, 2, length.out = 24), 3)
grp <- factor(rep(c("ctl", "trtA", "trtB"), 8))
trials <- sample(8:30, 24, replace = TRUE)
s <- rbinom(24, trials, plogis(-0.3 + 0.9 * x + c(0, 0.5, -0.4)[as.integer(grp)]))
bin <- data.frame(s = s, f = trials - s, x = x, grp = grp)
write_exact(bin, "binomial.csv")


save_summary <- function(fit, name) {
  writeLines(capture.output(print(summary(fit))), paste0(name, ".txt"))
}

save_summary(lm(life_expectancy ~ fertility + continent, data = data), "lm_factor")
save_summary(lm(life_expectancy ~ fertility * continent + poly(infant_mortality, 2),
                data = data), "lm_interaction_poly")
save_summary(lm(life_expectancy ~ bs(infant_mortality, df = 4) + ns(fertility, df = 3) +
                  log(gdp), data = data), "lm_splines_missing")
save_summary(lm(life_expectancy ~ C(continent) + I(fertility^2) + fertility:infant_mortality,
                data = data), "lm_c_identity")
save_summary(lm(life_expectancy ~ 0 + continent + infant_mortality, data = data),
             "lm_no_intercept")
save_summary(glm(life_expectancy ~ fertility + continent, data = data), "glm_gaussian")
save_summary(glm(life_expectancy ~ log(infant_mortality) + continent,
                 family = Gamma(link = "log"), data = data), "glm_gamma_log")
data$w <- data$fertility / 2
save_summary(lm(life_expectancy ~ infant_mortality + continent, data = data, weights = w),
             "lm_weighted")
data <- read.csv("binomial.csv", stringsAsFactors = TRUE)
save_summary(glm(cbind(s, f) ~ x + grp, family = binomial, data = data), "glm_cbind")
save_summary(glm(cbind(s, f) ~ x * grp, family = binomial(link = "probit"), data = data),
             "glm_cbind_probit")
save_summary(glm(s ~ x + grp, family = poisson, data = data), "glm_poisson")
data$outcome <- factor(ifelse(data$s > data$f, "yes", "no"))
save_summary(glm(outcome ~ x + grp, family = binomial, data = data), "glm_factor_response")

writeLines(c(R.version.string, paste("splines", packageVersion("splines"))), "VERSIONS")

# predictions at new points (beyond the data's range too: bs, ns and poly extrapolate)
data <- read.csv("gapminder2011.csv", stringsAsFactors = TRUE)
newdata <- data.frame(infant_mortality = c(1.5, 10, 60, 150),
                      fertility = c(1.1, 2.5, 5.5, 8.5),
                      gdp = c(2e8, 5e9, 3e11, 2e13),
                      continent = factor(c("Europe", "Africa", "Asia", "Oceania"),
                                         levels = levels(data$continent)))
fit1 <- lm(life_expectancy ~ bs(infant_mortality, df = 4) + ns(fertility, df = 3) + log(gdp),
           data = data)
fit2 <- lm(life_expectancy ~ fertility * continent + poly(infant_mortality, 2), data = data)
pred <- data.frame(newdata,
                   lm_splines_missing = sprintf("%.17g", predict(fit1, newdata)),
                   lm_interaction_poly = sprintf("%.17g", predict(fit2, newdata)))
write.csv(pred, "predictions.csv", row.names = FALSE)
