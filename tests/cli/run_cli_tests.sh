echo "no cli tests yet"
