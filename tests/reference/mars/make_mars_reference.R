# Reference fits of R's earth (MARS) for tests/mars/test_mars_reference.py.
#
# Run from this directory:
#
#     cd tests/reference/mars && Rscript make_mars_reference.R
#
# Requires R with earth (and its dependencies plotmo, plotrix, TeachingDemos).
#
# Writes the data sets as CSV (17 significant digits) and mars_reference.json: for each data
# set and degree 1 and 2, earth's forward-pass terms (dirs, cuts, term names), the selected
# terms, coefficients, RSS, RSq, GCV, GRSq, the RSS and GCV of every pruning subset, evimp and
# the termination condition; for biopsy, earth(glm = list(family = binomial)) at degree 1.
#   trees       Volume ~ Girth + Height (R's datasets::trees, 31 rows)
#   ozone       O3 ~ . (earth's ozone1, 330 rows, 9 predictors)
#   friedman    y ~ x1..x10, Friedman's first function with N(0, 1) noise, set.seed(20240611),
#               n = 300 (continuous predictors: no tied values)
#   gapminder   life_expectancy ~ fertility + infant_mortality + log_gdp_per_capita for 2011
#               (complete rows of the bundled gapminder.csv; log of gdp / population)
#               and life_expectancy ~ fertility alone (seed 004's E26 figure)
#   friedman_multi  (y, y2) ~ x1..x10 jointly, y2 = 5 sin(2 pi x6) + 4 x7 x8 + N(0, 1)
#   biopsy      class ~ V1..V9 (complete rows of the bundled biopsy.csv), malignant = 1
suppressPackageStartupMessages(library(earth))
source("../json_writer.R")
options(digits = 7)  # earth's term names use %g with digits <= 7

write17 <- function(d, file) {
  write.csv(format(d, digits = 17), file, row.names = FALSE, quote = FALSE)
  read.csv(file)
}

trees_d <- write17(datasets::trees, "trees.csv")
data(ozone1, package = "earth")
ozone_d <- write17(ozone1, "ozone.csv")
set.seed(20240611)
n <- 300
X <- matrix(runif(n * 10), n, 10, dimnames = list(NULL, paste0("x", 1:10)))
y <- 10 * sin(pi * X[, 1] * X[, 2]) + 20 * (X[, 3] - 0.5)^2 + 10 * X[, 4] + 5 * X[, 5] + rnorm(n)
friedman_d <- write17(data.frame(X, y = y), "friedman.csv")
gm <- read.csv("../../../src/statlearning/datasets/data/gapminder.csv")
gm <- gm[complete.cases(gm) & gm$year == 2011, ]
gapminder_d <- write17(data.frame(fertility = gm$fertility,
                                  infant_mortality = gm$infant_mortality,
                                  log_gdp_per_capita = log(gm$gdp / gm$population),
                                  life_expectancy = gm$life_expectancy), "gapminder2011.csv")
bp <- read.csv("../../../src/statlearning/datasets/data/biopsy.csv")
bp <- bp[complete.cases(bp), ]
biopsy_d <- data.frame(bp[, paste0("V", 1:9)], malignant = as.numeric(bp$class == "malignant"))
write.csv(biopsy_d, "biopsy.csv", row.names = FALSE, quote = FALSE)

describe <- function(m, x) {
  ev <- evimp(m, trim = TRUE)
  list(
    dirs = rows_of(unname(m$dirs)),
    cuts = rows_of(unname(m$cuts)),
    terms = I(rownames(m$dirs)),
    selected = I(as.integer(m$selected.terms - 1L)),
    coefficients = I(unname(m$coefficients[, 1])),
    rss = m$rss, rsq = m$rsq, gcv = m$gcv, grsq = m$grsq,
    rss_per_subset = I(m$rss.per.subset),
    gcv_per_subset = I(m$gcv.per.subset),
    termcond = m$termcond,
    fitted = I(unname(m$fitted.values[, 1])),
    evimp = list(feature = I(rownames(ev)), nsubsets = I(unname(ev[, "nsubsets"])),
                 gcv = I(unname(ev[, "gcv"])), rss = I(unname(ev[, "rss"])))
  )
}

fits <- list()
sets <- list(trees = list(trees_d, "Volume"), ozone = list(ozone_d, "O3"),
             friedman = list(friedman_d, "y"), gapminder = list(gapminder_d, "life_expectancy"))
for (name in names(sets)) {
  d <- sets[[name]][[1]]
  yname <- sets[[name]][[2]]
  x <- as.matrix(d[, setdiff(names(d), yname)])
  for (degree in 1:2) {
    m <- earth(x, d[[yname]], degree = degree)
    fits[[paste0(name, "_degree", degree)]] <- c(list(data = name, response = yname,
                                                      degree = degree), describe(m, x))
  }
}
# two responses fitted together (earth's multi-response model: no Scale.y, backward
# elimination by the summed RSS), degree 1 and 2
set.seed(20240612)
multi_d <- write17(data.frame(friedman_d, y2 = 5 * sin(2 * pi * friedman_d$x6) +
                                4 * friedman_d$x7 * friedman_d$x8 + rnorm(n)),
                   "friedman_multi.csv")
x <- as.matrix(multi_d[, paste0("x", 1:10)])
for (degree in 1:2) {
  m <- earth(x, as.matrix(multi_d[, c("y", "y2")]), degree = degree)
  fits[[paste0("friedman_multi_degree", degree)]] <- c(
    list(data = "friedman_multi", response = I(c("y", "y2")), degree = degree),
    describe(m, x),
    list(coefficients2 = I(unname(m$coefficients[, 2])),
         fitted2 = I(unname(m$fitted.values[, 2]))))
}
# earth's settings other than their defaults (MARSRegressor's max_terms = nk, thresh,
# minspan, endspan, penalty, prune = FALSE as pmethod = "none")
x <- as.matrix(friedman_d[, paste0("x", 1:10)])
settings <- list(
  friedman_settings1 = list(degree = 2L, nk = 15L, thresh = 1e-4, minspan = 3L, endspan = 5L,
                            penalty = 4, pmethod = "backward"),
  friedman_settings2 = list(degree = 1L, nk = 21L, thresh = 0.001, minspan = -3L, endspan = 0L,
                            penalty = 2, pmethod = "none"),
  friedman_settings3 = list(degree = 3L, nk = 25L, thresh = 0, minspan = 0L, endspan = 0L,
                            penalty = -1, pmethod = "backward"))
for (name in names(settings)) {
  a <- settings[[name]]
  m <- earth(x, friedman_d$y, degree = a$degree, nk = a$nk, thresh = a$thresh,
             minspan = a$minspan, endspan = a$endspan, penalty = a$penalty, pmethod = a$pmethod)
  fits[[name]] <- c(list(data = "friedman", response = "y", degree = a$degree,
                         settings = a), describe(m, x))
}
# seed 004 E26: MARS of life expectancy on fertility alone (Data-2011)
x <- as.matrix(gapminder_d[, "fertility", drop = FALSE])
m <- earth(x, gapminder_d$life_expectancy, degree = 1)
fits$gapminder_e26 <- c(list(data = "gapminder", response = "life_expectancy", degree = 1L,
                             columns = I("fertility")), describe(m, x))
x <- as.matrix(biopsy_d[, paste0("V", 1:9)])
m <- earth(x, biopsy_d$malignant, degree = 1, glm = list(family = binomial))
g <- m$glm.list[[1]]
fits$biopsy_glm <- c(list(data = "biopsy", response = "malignant", degree = 1L),
                     describe(m, x),
                     list(glm_coefficients = I(unname(m$glm.coefficients[, 1])),
                          deviance = g$deviance, null_deviance = g$null.deviance, aic = g$aic,
                          glm_fitted = I(unname(fitted(g)))))

out <- list(R_version = R.version.string,
            earth_version = as.character(packageVersion("earth")),
            fits = fits)
writeLines(to_json(out), "mars_reference.json")
