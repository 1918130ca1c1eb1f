# ZeroDivisionError: with no buckets every key goes to bucket 0.
# Proceeds correctly when it prints:
#   bucket 0
key, size = 17, 0
bucket = key % size
print("bucket", bucket)
