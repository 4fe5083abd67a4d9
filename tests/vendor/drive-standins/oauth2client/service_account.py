from googleapiclient import NotHere

ServiceAccountCredentials = NotHere
