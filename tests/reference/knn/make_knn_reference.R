# Reference predictions from R's class::knn for the KNeighborsClassifier tests.
#
# Run from this directory:
#
#     cd tests/reference/knn && Rscript make_knn_reference.R
#
# Requires R with the recommended packages class and MASS (Debian: r-cran-class,
# r-cran-mass). The JSON is written by hand below (no other package).
#
# Produces, in the current directory:
#   <case>_train.csv, <case>_test.csv
#       The fixed train/test split of each case: the features, then the class
#       label (column `class`). Every double is written with 17 significant
#       digits; the files are read back and checked to give identical doubles,
#       and knn() runs on the read-back data, so that R and the Python tests
#       see the same numbers.
#   knn_reference.json
#       For each case and each k: knn(train, test, cl, k, use.all = TRUE,
#       prob = TRUE) -- the predicted labels and attr(, "prob"), the
#       proportion of votes for the winning class among the k nearest
#       neighbours and every training point tied with the k-th. R versions
#       are recorded at the top level.
#
# Cases: iris (rows 1, 4, 7, ... are the test set: 50 test, 100 train; raw
# measurements) and MASS::biopsy (complete cases; rows 1, 4, 7, ... test;
# nine integer scores 1-10, hence many exact distance ties).
#
# class::knn breaks tied *votes* at random (set.seed below makes the file
# reproducible); the tests compare only queries whose vote is not tied.

options(warn = 1)
suppressPackageStartupMessages({
  library(class)
  library(MASS)
})

num <- function(x) ifelse(is.finite(x), sprintf("%.17g", x), "null")
str <- function(x) paste0("\"", gsub("\"", "\\\"", x, fixed = TRUE), "\"")
arr <- function(items) paste0("[", paste(items, collapse = ", "), "]")

write_exact <- function(df, path) {
  out <- df
  for (j in seq_along(out)) if (is.numeric(out[[j]])) out[[j]] <- sprintf("%.17g", out[[j]])
  write.csv(out, path, row.names = FALSE, quote = which(!vapply(df, is.numeric, TRUE)))
  back <- read.csv(path, stringsAsFactors = FALSE)
  for (j in seq_along(df)) {
    if (is.numeric(df[[j]]) && !identical(as.numeric(back[[j]]), as.numeric(df[[j]]))) {
      stop("column ", names(df)[j], " of ", path, " does not read back identically")
    }
  }
  back
}

cases <- list()

iris_df <- data.frame(iris[, 1:4], class = as.character(iris$Species))
bio <- MASS::biopsy
bio <- bio[complete.cases(bio), ]
bio_df <- data.frame(bio[, paste0("V", 1:9)], class = as.character(bio$class))
for (j in 1:9) bio_df[[j]] <- as.numeric(bio_df[[j]])

inputs <- list(iris = iris_df, biopsy = bio_df)
ks <- c(1L, 2L, 3L, 5L, 7L, 10L, 15L)

set.seed(20240601)
for (name in names(inputs)) {
  df <- inputs[[name]]
  test_rows <- seq(1L, nrow(df), by = 3L)
  train <- write_exact(df[-test_rows, ], paste0(name, "_train.csv"))
  test <- write_exact(df[test_rows, ], paste0(name, "_test.csv"))
  feats <- setdiff(names(train), "class")
  runs <- character(0)
  for (k in ks) {
    fit <- knn(train[, feats], test[, feats], factor(train$class), k = k,
               l = 0, prob = TRUE, use.all = TRUE)
    runs <- c(runs, paste0(
      "{\"k\": ", k,
      ", \"prediction\": ", arr(str(as.character(fit))),
      ", \"prob\": ", arr(num(attr(fit, "prob"))), "}"
    ))
  }
  cases[[name]] <- paste0(
    "{\"n_train\": ", nrow(train), ", \"n_test\": ", nrow(test),
    ", \"features\": ", arr(str(feats)), ", \"runs\": ", arr(runs), "}"
  )
}

json <- paste0(
  "{\n",
  "  \"r_version\": ", str(R.version.string), ",\n",
  "  \"class_version\": ", str(as.character(packageVersion("class"))), ",\n",
  "  \"MASS_version\": ", str(as.character(packageVersion("MASS"))), ",\n",
  "  \"call\": \"knn(train, test, cl, k, l = 0, prob = TRUE, use.all = TRUE)\",\n",
  "  \"cases\": {\n",
  paste0("    ", str(names(cases)), ": ", unlist(cases), collapse = ",\n"),
  "\n  }\n}\n"
)
writeLines(json, "knn_reference.json", sep = "")
cat("wrote knn_reference.json with", length(cases), "cases\n")
