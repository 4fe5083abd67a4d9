from hhdcli.start import main

if __name__ == "__main__":  # not when a worker process (spawned) imports it again
    main()
