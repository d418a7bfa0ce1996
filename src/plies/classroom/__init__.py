"""Material for a course: worksheets and exams with their answer keys, and exercises
for the learning platforms (Moodle XML, QTI for Canvas), made from plies' own search."""
