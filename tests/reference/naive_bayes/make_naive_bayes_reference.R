# Reference numbers from e1071::naiveBayes for the naive Bayes tests.
#
# Run from this directory:
#
#     cd tests/reference/naive_bayes && Rscript make_naive_bayes_reference.R
#
# Requires R with MASS (Debian: r-cran-mass) and e1071 (Debian: r-cran-e1071).
# The JSON is written in base R by ../json_writer.R.
#
# Produces, in the current directory, one CSV per data set (the class label
# as text, factor features as 1-based level codes), titanic_newdata.csv and
# naive_bayes_reference.json with r_version, e1071_version, mass_version,
# cases and, for each case:
#   data_file, features, label, classes (class levels),
#   numeric / categorical: the names of the numeric and factor features,
#   factor_levels: for each factor feature, its level names (the CSV holds
#       the 1-based level codes, so level i is written as i),
#   laplace: the smoothing used,
#   apriori: class counts,
#   tables: for a numeric feature a list [means, sds] (one entry per class,
#       sd with divisor n_k - 1); for a factor feature one row per class of
#       conditional probabilities (tab + laplace) / (rowSums(tab) +
#       laplace * nlevels), where table() leaves NA out,
#   newdata_file: CSV of the points predicted (the training data itself unless
#       the case says otherwise; NA is an empty field),
#   posterior: predict(fit, newdata, type = "raw"), one row per point,
#   class: predict(fit, newdata).
# Doubles are printed with sprintf("%.17g"); NA is written as empty in CSVs.
#
# Cases:
#   iris        numeric features only (Gaussian naive Bayes, unbiased sd)
#   titanic     the 2201 passengers of datasets::Titanic: Class, Sex, Age ->
#               Survived, laplace = 0; predicted at all 16 combinations
#   titanic_l1  the same with laplace = 1
#   biopsy      MASS::biopsy, all 699 rows, V1..V9 as factors (16 NA in V6),
#               laplace = 1; predicted at the training rows (NA skipped)
#   mixed       iris with Sepal.Length, Sepal.Width, Petal.Length numeric and
#               Petal.Width cut into 3 intervals (a factor); some values set to
#               NA; laplace = 1; predicted at the training rows

options(warn = 1)
suppressPackageStartupMessages({library(MASS); library(e1071)})

# Minimal JSON writer (shared; see ../json_writer.R).
source("../json_writer.R")

# Factors become their 1-based codes; numbers are written with 17 digits.
write_csv17 <- function(d, file) {
  out <- d
  for (nm in names(d)) {
    v <- d[[nm]]
    if (is.factor(v)) {
      out[[nm]] <- ifelse(is.na(v), "", as.character(as.integer(v)))
    } else if (is.numeric(v)) {
      out[[nm]] <- ifelse(is.na(v), "", sprintf("%.17g", as.double(v)))
    } else {
      out[[nm]] <- as.character(v)
    }
  }
  write.csv(out, file, row.names = FALSE, quote = FALSE, na = "")
  back <- read.csv(file, check.names = FALSE, stringsAsFactors = FALSE)
  for (nm in names(d)) {
    v <- d[[nm]]
    ref <- if (is.factor(v)) as.double(as.integer(v)) else if (is.numeric(v)) as.double(v) else NULL
    if (!is.null(ref) && !identical(as.double(back[[nm]]), ref))
      stop("column ", nm, " of ", file, " does not read back identically")
  }
  invisible(NULL)
}

table_json <- function(tab) {
  if (is.null(colnames(tab)) || identical(colnames(tab), c("", ""))) {
    list(means = tab[, 1], sds = tab[, 2])
  } else {
    rows_of(unclass(tab))
  }
}

run_case <- function(name, x, y, newdata, laplace, label = "class", file = name) {
  data_file <- paste0(file, ".csv")
  data <- x
  data[[label]] <- as.character(y)
  write_csv17(data, data_file)
  new_file <- data_file
  if (is.null(newdata)) {
    newdata <- x
  } else {
    new_file <- paste0(file, "_newdata.csv")
    write_csv17(newdata, new_file)
  }
  fit <- naiveBayes(x, y, laplace = laplace)
  post <- predict(fit, newdata, type = "raw")
  cls <- predict(fit, newdata)
  is_num <- vapply(x, is.numeric, NA)
  tables <- lapply(fit$tables, function(t) {
    if (is.numeric(t) && ncol(t) == 2L && is.null(colnames(t)))
      list(means = unname(t[, 1]), sds = unname(t[, 2]))
    else rows_of(matrix(unclass(t), nrow = nrow(t)))
  })
  levs <- lapply(x[!is_num], levels)
  list(
    data_file = data_file, newdata_file = new_file, features = I(names(x)),
    label = label, classes = I(levels(y)),
    numeric = I(names(x)[is_num]), categorical = I(names(x)[!is_num]),
    factor_levels = if (length(levs)) lapply(levs, I) else setNames(list(), character(0)),
    laplace = laplace, apriori = as.vector(fit$apriori),
    tables = tables, posterior = rows_of(post), class = as.character(cls)
  )
}

out <- list(
  r_version = R.version.string,
  e1071_version = as.character(packageVersion("e1071")),
  mass_version = as.character(packageVersion("MASS")),
  generated_by = "make_naive_bayes_reference.R"
)
refs <- list()

# iris: numeric
refs$iris <- run_case("iris", iris[, 1:4], iris$Species, NULL, 0, "Species")

# Titanic: the 2201 passengers
tt <- as.data.frame(Titanic)
tt <- tt[rep(seq_len(nrow(tt)), tt$Freq), c("Class", "Sex", "Age", "Survived")]
rownames(tt) <- NULL
stopifnot(nrow(tt) == 2201L)
grid <- expand.grid(Class = levels(tt$Class), Sex = levels(tt$Sex), Age = levels(tt$Age))
for (nm in names(grid)) grid[[nm]] <- factor(grid[[nm]], levels = levels(tt[[nm]]))
refs$titanic <- run_case("titanic", tt[, 1:3], tt$Survived, grid, 0, "Survived")
refs$titanic_l1 <- run_case("titanic_l1", tt[, 1:3], tt$Survived, grid, 1, "Survived",
                            file = "titanic")

# biopsy: nine scores as factors, NA kept
bx <- biopsy[, paste0("V", 1:9)]
for (nm in names(bx)) bx[[nm]] <- factor(bx[[nm]])
stopifnot(sum(is.na(bx)) == 16L)
refs$biopsy <- run_case("biopsy", bx, biopsy$class, NULL, 1, "class")

# mixed: three numeric columns and a factor, with some NA
mx <- iris[, 1:3]
mx$Petal.Width.cut <- cut(iris$Petal.Width, breaks = 3)
mx$Sepal.Length[c(3, 60, 120)] <- NA
mx$Petal.Length[c(10, 75)] <- NA
mx$Petal.Width.cut[c(20, 90, 140)] <- NA
refs$mixed <- run_case("mixed", mx, iris$Species, NULL, 1, "Species")

out$cases <- I(names(refs))
out <- c(out, refs)
writeLines(to_json(out), "naive_bayes_reference.json")
