# R's printed summaries of models with offset() terms in their formulas, for tests/formula.
#
# Run from this directory (after make_formula_reference.R, which writes the data):
#
#     cd tests/reference/formula && Rscript make_offset_reference.R
#
# Writes <case>.txt, print(summary(fit)) with options(width = 80, useFancyQuotes = FALSE),
# and offset_predictions.csv: predictions at new rows, whose offsets differ from the data's.

options(useFancyQuotes = FALSE, width = 80, digits = 7)

save_summary <- function(fit, name) {
  writeLines(capture.output(print(summary(fit))), paste0(name, ".txt"))
}

data <- read.csv("binomial.csv", stringsAsFactors = TRUE)
bin <- data
pois <- glm(s ~ x + grp + offset(log(s + f)), family = poisson, data = data)
save_summary(pois, "glm_poisson_offset")
data <- read.csv("gapminder2011.csv", stringsAsFactors = TRUE)
gap <- data
lin <- lm(life_expectancy ~ fertility + continent + offset(-0.2 * infant_mortality), data = data)
save_summary(lin, "lm_offset")

new_bin <- data.frame(s = c(3, 10, 0), f = c(7, 30, 50), x = c(-1, 0.5, 2),
                      grp = factor(c("ctl", "trtA", "trtB"), levels = levels(bin$grp)))
new_gap <- data.frame(fertility = c(1.5, 3, 6), infant_mortality = c(3, 40, 100),
                      continent = factor(c("Europe", "Asia", "Africa"),
                                         levels = levels(gap$continent)))
out <- data.frame(case = rep(c("glm_poisson_offset", "lm_offset"), each = 3),
                  prediction = sprintf("%.17g", c(predict(pois, new_bin, type = "response"),
                                                  predict(lin, new_gap))))
write.csv(out, "offset_predictions.csv", row.names = FALSE)
