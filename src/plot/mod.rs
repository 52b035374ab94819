//! # Figures (placeholder: being written)
