"""Detroit-Cleveland Grand Prix: auction six cars, then race them with shared movement cards."""
