//! # Experiments (placeholder: being written)
