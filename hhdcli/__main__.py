from hhdcli.start import main

main()
