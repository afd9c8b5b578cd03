/// Placeholder until its issue lands: the module exists so the layering is fixed from the start.
enum ATClientModule {}
