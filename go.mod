module github.com/lagoon-games/lagoon

go 1.26
