from googleapiclient import NotHere

MediaIoBaseDownload = NotHere
