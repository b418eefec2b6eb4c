# Export the data sets bundled with statlearning.datasets from their R sources.
#
# Usage (from this folder, or from anywhere with an output directory):
#
#     Rscript export_datasets.R            # writes next to this script
#     Rscript export_datasets.R OUTDIR     # writes into OUTDIR
#
# Requirements: R with the packages 'dslabs' and 'MASS' (on Debian/Ubuntu:
# apt-get install r-base-core r-cran-dslabs r-cran-mass).
#
# Files written:
#
#   gapminder.csv  dslabs::gapminder (Artistic-2.0). One row per country and
#                  year, 1960-2016. Missing values are written as empty
#                  fields, numbers as the shortest decimal string that reads
#                  back to the same double, always with a decimal point
#                  (1636054 -> 1636054.0), strings quoted only when they
#                  contain a comma, a double quote or a line break.
#   biopsy.csv     MASS::biopsy, the Wisconsin Breast Cancer Database
#                  (Wolberg & Mangasarian, 1990), written with
#                  write.csv(row.names = FALSE): quoted strings, NA for missing.
#
# Last run with R 4.2.2 Patched (2022-11-10 r83330), dslabs 0.7.4 and
# MASS 7.3-58.2 (Debian packages); the versions in use are echoed at start-up.

pkg_version <- function(pkg) utils::packageDescription(pkg)$Version

cat("# ", R.version.string, "\n", sep = "")
cat("# dslabs ", pkg_version("dslabs"), ", MASS ", pkg_version("MASS"), "\n", sep = "")

# Output directory: first argument, else the folder holding this script, else ".".
args <- commandArgs(trailingOnly = TRUE)
if (length(args) >= 1) {
  out_dir <- args[[1]]
} else {
  file_arg <- grep("^--file=", commandArgs(trailingOnly = FALSE), value = TRUE)
  out_dir <- if (length(file_arg) == 1) dirname(sub("^--file=", "", file_arg)) else "."
}
if (!dir.exists(out_dir)) stop("output directory does not exist: ", out_dir)

# Shortest decimal representation of each double that reads back exactly,
# laid out as positional notation with at least one decimal ("62.87",
# "1636054.0", "678538007.8"); scientific notation ("1e+16", "1.5e-05") only
# for magnitudes outside [1e-4, 1e16). NA becomes "".
format_double <- function(x) {
  out <- rep("", length(x))
  ok <- which(!is.na(x))
  for (i in ok) {
    v <- x[[i]]
    if (!is.finite(v)) {
      out[[i]] <- if (v > 0) "inf" else "-inf"
      next
    }
    for (d in 1:17) {
      s <- sprintf(paste0("%.", d - 1, "e"), v)
      if (as.numeric(s) == v) break
    }
    neg <- startsWith(s, "-")
    s <- sub("^-", "", s)
    mantissa <- sub("e.*$", "", s)
    expo <- as.integer(sub("^.*e", "", s))
    digits <- sub("0+$", "", sub(".", "", mantissa, fixed = TRUE))
    if (digits == "") digits <- "0"
    n <- nchar(digits)
    if (expo >= -4 && expo < 16) {
      if (expo >= n - 1) {
        txt <- paste0(digits, strrep("0", expo - (n - 1)), ".0")
      } else if (expo >= 0) {
        txt <- paste0(substr(digits, 1, expo + 1), ".", substr(digits, expo + 2, n))
      } else {
        txt <- paste0("0.", strrep("0", -expo - 1), digits)
      }
    } else {
      m <- if (n > 1) paste0(substr(digits, 1, 1), ".", substr(digits, 2, n)) else digits
      txt <- paste0(m, "e", if (expo < 0) "-" else "+", sprintf("%02d", abs(expo)))
    }
    out[[i]] <- paste0(if (neg) "-" else "", txt)
  }
  out
}

# Strings: quoted (with doubled inner quotes) only when they need it; NA -> "".
format_string <- function(x) {
  x <- as.character(x)
  needs <- !is.na(x) & grepl("[,\"\r\n]", x)
  x[needs] <- paste0("\"", gsub("\"", "\"\"", x[needs], fixed = TRUE), "\"")
  x[is.na(x)] <- ""
  x
}

format_column <- function(col) {
  if (is.factor(col) || is.character(col) || is.logical(col)) {
    format_string(col)
  } else if (is.integer(col)) {
    out <- as.character(col)
    out[is.na(col)] <- ""
    out
  } else if (is.double(col)) {
    format_double(col)
  } else {
    stop("unsupported column type: ", class(col)[[1]])
  }
}

write_minimal_csv <- function(df, path) {
  fields <- lapply(df, format_column)
  lines <- c(
    paste(format_string(names(df)), collapse = ","),
    do.call(paste, c(fields, sep = ","))
  )
  con <- file(path, open = "wb")
  on.exit(close(con))
  writeLines(enc2utf8(lines), con, sep = "\n", useBytes = TRUE)
}

# --- gapminder (dslabs) ------------------------------------------------------
gapminder <- dslabs::gapminder
gapminder_path <- file.path(out_dir, "gapminder.csv")
write_minimal_csv(gapminder, gapminder_path)
cat("# wrote ", gapminder_path, ": ", nrow(gapminder), " rows x ", ncol(gapminder),
    " columns\n", sep = "")

# --- biopsy (MASS) -------------------------------------------------------------
biopsy <- MASS::biopsy
biopsy_path <- file.path(out_dir, "biopsy.csv")
utils::write.csv(biopsy, biopsy_path, row.names = FALSE, fileEncoding = "UTF-8")
cat("# wrote ", biopsy_path, ": ", nrow(biopsy), " rows x ", ncol(biopsy),
    " columns\n", sep = "")
