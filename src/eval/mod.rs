pub mod psq;
