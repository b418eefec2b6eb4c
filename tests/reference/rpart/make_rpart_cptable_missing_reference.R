# Cross-validated cp tables of rpart on data with missing values in several columns.
#
# Run from this directory (after make_rpart_missing_reference.R, which writes biopsy.csv and
# gapminder2011_missing.csv):
#
#     cd tests/reference/rpart && Rscript make_rpart_cptable_missing_reference.R
#
# Requires R with rpart and jsonlite. For three seeds, NA is set at random (rate 0.2, 0.1 and
# 0.3) in V1, V3, V4, V5, V7, V8 of MASS::biopsy and in the three numeric predictors of the
# gapminder-2011 data; the data are written with the cp tables (cp = 0.001, minsplit 20,
# minbucket 7, xval = rep(1:10, length.out = n)) to rpart_cptable_missing.json:
#   b_cls  class ~ V1 + ... + V9 (method "class")
#   b_reg  V2 ~ V1 + V3 + ... + V9 (method "anova")
#   g_reg  life_expectancy ~ infant_mortality + fertility + log_population + continent
#   g_cls  le_class ~ infant_mortality + fertility + log_population
# rpart's CP column comes from its one-pass node complexities (partition.c), which can differ
# from the exact weakest-link sequence (seed 7, b_reg: 0.00737 against 0.00792).
suppressPackageStartupMessages({library(rpart); library(jsonlite)})
b <- read.csv("biopsy.csv", stringsAsFactors = TRUE)
g <- read.csv("gapminder2011_missing.csv", stringsAsFactors = TRUE, na.strings = c("NA", " NA"),
              strip.white = TRUE)
cases <- list(s2 = c("b_cls", "b_reg", "g_reg", "g_cls"), s5 = c("b_cls", "b_reg", "g_reg", "g_cls"),
              s7 = c("b_cls", "b_reg", "g_cls"))
out <- list(R_version = R.version.string, rpart_version = as.character(packageVersion("rpart")))
for (name in names(cases)) {
  s <- as.integer(sub("s", "", name))
  set.seed(s)
  rate <- c(0.1, 0.2, 0.3, 0.4)[(s - 1) %% 4 + 1]
  b2 <- b
  for (v in paste0("V", c(1, 3, 4, 5, 7, 8))) b2[runif(nrow(b2)) < rate, v] <- NA
  g2 <- g
  for (v in c("infant_mortality", "fertility", "log_population")) g2[runif(nrow(g2)) < rate, v] <- NA
  fb <- rep(1:10, length.out = nrow(b)); fg <- rep(1:10, length.out = nrow(g))
  ctrl <- function(f) rpart.control(minsplit = 20, minbucket = 7, cp = 0.001, xval = f)
  fits <- list(
    b_cls = rpart(class ~ ., data = b2, method = "class", control = ctrl(fb)),
    b_reg = rpart(V2 ~ V1 + V3 + V4 + V5 + V6 + V7 + V8 + V9, data = b2, control = ctrl(fb)),
    g_reg = rpart(life_expectancy ~ infant_mortality + fertility + log_population + continent,
                  data = g2, control = ctrl(fg)),
    g_cls = rpart(le_class ~ infant_mortality + fertility + log_population, data = g2,
                  method = "class", control = ctrl(fg)))
  entry <- list(biopsy = b2, gapminder = g2)
  for (k in cases[[name]]) entry[[k]] <- unname(fits[[k]]$cptable)
  out[[name]] <- entry
}
writeLines(toJSON(out, digits = I(17), na = "null", auto_unbox = TRUE), "rpart_cptable_missing.json")
